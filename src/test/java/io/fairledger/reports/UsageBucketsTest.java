package io.fairledger.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.accounting.StatementView;

/** The grouping and bucketing of {@link UsageReport#buckets}, on a nested tree the server test does not have. */
class UsageBucketsTest {

    private static final Instant T0 = Instant.parse("2026-11-21T00:00:00Z");

    @Test
    void parentsSumTheirChildrenAndBucketsHoldWholePeriodsByTheirStart() {
        List<StatementView> statements = List.of(period(0, line("root.a.x", "2", "1"), line("root.a.y", "3", "3"),
                line("root.b", "1", "0")), period(1, line("root.a.x", "5", "4"), line("root.b", "0", "0")),
                period(2, line("root.b", "7", "7")));

        List<UsageReport.Bucket> byParent = UsageReport.buckets(statements, T0, T0.plusSeconds(3 * 3600), 2 * 3600_000L,
                UsageReport.Aggregate.PARENT);
        assertThat(byParent).hasSize(2);
        assertThat(byParent.get(0).periods()).containsExactly("p0", "p1");
        assertThat(byParent.get(0).rows()).extracting(UsageReport.Row::key).containsExactly("root", "root.a");
        UsageReport.Row a = byParent.get(0).rows().get(1);
        assertThat(a.actual()).isEqualByComparingTo("10");
        assertThat(a.entitled()).isEqualByComparingTo("8");
        assertThat(a.rho()).isEqualTo(10.0 / 8.0);
        assertThat(a.charge()).isEqualByComparingTo("1.00");
        assertThat(byParent.get(0).rows().get(0).rho()).as("root.b had no entitlement").isNull();
        assertThat(byParent.get(1).end()).as("the last bucket ends with the report")
                .isEqualTo(T0.plusSeconds(3 * 3600));
        assertThat(byParent.get(1).periods()).containsExactly("p2");

        List<UsageReport.Bucket> byTenant = UsageReport.buckets(statements, T0, T0.plusSeconds(3 * 3600), 3 * 3600_000L,
                UsageReport.Aggregate.TENANT);
        assertThat(byTenant.get(0).rows()).extracting(UsageReport.Row::key).containsExactly("root.a.x", "root.a.y",
                "root.b");
        assertThat(byTenant.get(0).rows().get(2).actual()).isEqualByComparingTo("8");
        List<UsageReport.Bucket> whole = UsageReport.buckets(statements, T0, T0.plusSeconds(3 * 3600), 3 * 3600_000L,
                UsageReport.Aggregate.CLUSTER);
        assertThat(whole.get(0).rows()).singleElement().satisfies(r -> {
            assertThat(r.key()).isEqualTo("cluster");
            assertThat(r.actual()).isEqualByComparingTo("18");
            assertThat(r.vcoreSeconds()).isEqualByComparingTo("18000");
        });
    }

    private static StatementView period(int index, StatementView.Line... lines) {
        return new StatementView("c", "p" + index, T0.plusSeconds(index * 3600L),
                T0.plusSeconds((index + 1) * 3600L), StatementView.CLOSED, "USAGE", "XXX", BigDecimal.ZERO,
                List.of(lines));
    }

    /** A line with {@code actual} capacity-hours, {@code entitled} capacity-hours and a charge of 0.10 per capacity-hour. */
    private static StatementView.Line line(String tenant, String actual, String entitled) {
        BigDecimal a = new BigDecimal(actual);
        BigDecimal charge = a.multiply(new BigDecimal("0.10"));
        return new StatementView.Line(tenant, false, a.multiply(BigDecimal.valueOf(1000)), BigDecimal.ZERO,
                BigDecimal.ZERO, a, a, new BigDecimal(entitled), null, BigDecimal.ZERO, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, charge, List.of(), charge);
    }
}
