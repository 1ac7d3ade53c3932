package io.fairledger.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.errors.Conflict;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * The mapping of a closed statement to charges: a row per billed tenant and resource whose billed costs sum to the
 * line's charge exactly, list and contracted costs at the default and the tenant's plan, a correction row per
 * adjustment in the corrected period's bounds, GPU rows only with GPUs, inner tenants never billed, GROUP_BUY
 * refused; and the FOCUS CSV of them meets the specification's column requirements.
 */
class ChargeRowsTest {

    static final Instant P0 = Instant.parse("2026-11-20T00:00:00Z");
    static final Instant P1 = Instant.parse("2026-11-20T01:00:00Z");
    static final Instant P2 = Instant.parse("2026-11-20T02:00:00Z");

    @Test
    void aTenantsRowsSumToItsLineAndCorrectionsNameTheirPeriod() {
        StatementView first = statement("p0", P0, P1, "USAGE", List.of(line("root.b", "0.00", List.of())));
        StatementView second = statement("p1", P1, P2, "USAGE", List.of(inner("root.a"),
                line("root.a.x", "10.01", List.of(new StatementView.Adjustment("p0", new BigDecimal("-1.50"),
                        "late facts"))),
                line("root.b", "3.33", List.of())));
        List<ChargeRow> rows = ChargeRows.of(second, settings(1, ChargeModel.USAGE),
                Map.of("p0", first, "p1", second), tenant -> true);

        assertThat(rows).extracting(ChargeRow::tenant).doesNotContain("root.a");
        List<ChargeRow> x = rows.stream().filter(r -> r.tenant().equals("root.a.x")).toList();
        assertThat(x).extracting(ChargeRow::resource).containsExactly(Resource.VCORE, Resource.MEMORY, Resource.GPU,
                null);
        assertThat(sum(x.subList(0, 3))).isEqualByComparingTo("10.01");
        assertThat(sum(x)).as("the line's total, the correction included").isEqualByComparingTo("8.51");
        ChargeRow vcores = x.get(0);
        assertThat(vcores.quantity()).isEqualByComparingTo("2");
        assertThat(vcores.listUnitPrice()).as("the default plan's price").isEqualByComparingTo("1");
        assertThat(vcores.contractedUnitPrice()).as("the tenant's own plan").isEqualByComparingTo("0.8");
        assertThat(vcores.contractedCost()).isEqualByComparingTo("1.6");
        assertThat(x.get(1).quantity()).as("GB(1024 MB)-hours").isEqualByComparingTo("4");
        ChargeRow correction = x.get(3);
        assertThat(correction.correction()).isTrue();
        assertThat(correction.billingPeriod()).isEqualTo("p1");
        assertThat(correction.chargePeriod()).isEqualTo("p0");
        assertThat(correction.chargeStart()).isEqualTo(P0);
        assertThat(correction.chargeEnd()).isEqualTo(P1);

        List<Map<String, String>> csv = FocusRequirements.rows(FocusCsv.write(rows, "Shared cluster"));
        FocusRequirements.check(csv);
        assertThat(csv).filteredOn(r -> r.get("ChargeClass") != null).hasSize(1);
        assertThat(csv.stream().filter(r -> r.get("SubAccountId").equals("root.a.x"))
                .map(r -> FocusRequirements.decimal(r, "BilledCost")).reduce(BigDecimal.ZERO, BigDecimal::add))
                .isEqualByComparingTo("8.51");
    }

    @Test
    void aClusterWithoutGpusHasNoGpuRows() {
        StatementView.Line used = line("root.b", "1.00", List.of());
        StatementView.Line noGpu = new StatementView.Line(used.tenant(), false, used.vcoreSeconds(),
                used.memoryMbSeconds(), BigDecimal.ZERO, used.counted(), used.actual(), used.entitled(), used.rho(),
                used.lent(), used.borrowed(), used.owed(), used.balance(), used.charge(), List.of(), used.total());
        StatementView s = statement("p0", P0, P1, "USAGE", List.of(noGpu));
        List<ChargeRow> rows = ChargeRows.of(s, settings(0, ChargeModel.USAGE), Map.of("p0", s), t -> true);
        assertThat(rows).extracting(ChargeRow::resource).containsExactly(Resource.VCORE, Resource.MEMORY);
        assertThat(rows.get(0).contractedUnitPrice()).as("no plan of its own: the default")
                .isEqualByComparingTo("1");
    }

    @Test
    void onlyTheTenantsAskedForAreBilled() {
        StatementView s = statement("p0", P0, P1, "USAGE", List.of(line("root.a.x", "1.00", List.of()),
                line("root.b", "1.00", List.of())));
        assertThat(ChargeRows.of(s, settings(0, ChargeModel.USAGE), Map.of("p0", s), "root.b"::equals))
                .extracting(ChargeRow::tenant).containsOnly("root.b");
    }

    @Test
    void groupBuyPeriodsAreRefused() {
        StatementView s = statement("p0", P0, P1, "GROUP_BUY", List.of(line("root.b", "1.00", List.of())));
        assertThatThrownBy(() -> ChargeRows.of(s, settings(0, ChargeModel.GROUP_BUY), Map.of("p0", s), t -> true))
                .isInstanceOf(Conflict.class).hasMessageContaining("only USAGE periods");
    }

    static BigDecimal sum(List<ChargeRow> rows) {
        return rows.stream().map(ChargeRow::billedCost).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    static StatementView statement(String id, Instant start, Instant end, String model,
            List<StatementView.Line> lines) {
        BigDecimal total = lines.stream().map(StatementView.Line::total).reduce(BigDecimal.ZERO, BigDecimal::add);
        return new StatementView("c", id, start, end, StatementView.CLOSED, model, "EUR", total, lines);
    }

    /** Two vcore-hours, four GB-hours and one GPU-hour, charged {@code charge}. */
    static StatementView.Line line(String tenant, String charge, List<StatementView.Adjustment> adjustments) {
        BigDecimal total = adjustments.stream().map(StatementView.Adjustment::amount)
                .reduce(new BigDecimal(charge), BigDecimal::add);
        return new StatementView.Line(tenant, false, new BigDecimal("7200"), new BigDecimal(4 * 1024 * 3600),
                new BigDecimal("3600"), BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE, 1.0, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, new BigDecimal(charge), adjustments, total);
    }

    static StatementView.Line inner(String tenant) {
        return new StatementView.Line(tenant, true, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, BigDecimal.ZERO, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, new BigDecimal("0.00"), List.of(), new BigDecimal("0.00"));
    }

    static LedgerSettings settings(long gpus, ChargeModel model) {
        return new LedgerSettings(P0, new LedgerSettings.Capacity(10, 10240, gpus), 0.5, null, null, null,
                new PeriodSettings(null, Duration.ofHours(1)), null,
                new LedgerSettings.Chargeback(model,
                        List.of(new LedgerSettings.Plan("std", BigDecimal.ONE, new BigDecimal("0.5"),
                                new BigDecimal("3")),
                                new LedgerSettings.Plan("gold", new BigDecimal("0.8"), new BigDecimal("0.4"),
                                        new BigDecimal("2"))),
                        "std", new BigDecimal("100"), 2, "EUR"),
                List.of(new LedgerSettings.Tenant("root.a.x", 1, null, "gold"),
                        new LedgerSettings.Tenant("root.b", 1, null, null)));
    }
}
