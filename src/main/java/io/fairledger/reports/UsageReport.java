package io.fairledger.reports;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.model.TenantPath;

/**
 * Usage, counted usage, entitlement, fairness degree and charges over a window, in buckets of {@code step}, summed
 * from statement lines (the answer of {@code GET /api/v1/clusters/{id}/usage}).
 *
 * <p>
 * Statements are the unit of the books: a period is counted whole in the bucket its start falls in, and a window is
 * widened to the boundaries of the periods it touches ({@code from}, {@code to} say where the report really starts and
 * ends). So every number is the sum of statement lines, and a report never disagrees with a statement. Usage figures
 * are capacity-hours and resource-seconds as in statements; {@code rho} is actual over entitled usage of the bucket,
 * null without entitlement.
 *
 * @param requestedFrom the window asked for, start
 * @param requestedTo   the window asked for, end
 * @param from          the start of the first period the window touches
 * @param to            the end of the report: the last bucket's end
 * @param currency      ISO 4217 code of {@code charge} and {@code total}
 */
public record UsageReport(String cluster, Instant requestedFrom, Instant requestedTo, Instant from, Instant to,
        String step, String aggregate, String currency, List<Bucket> buckets) {

    /** How lines are grouped into rows. */
    public enum Aggregate {
        /** one row per billed (leaf) tenant */
        TENANT,
        /** one row per parent of billed tenants */
        PARENT,
        /** one row for the whole cluster */
        CLUSTER;

        /** The key of {@code tenant}'s row. */
        String key(String tenant) {
            return switch (this) {
                case TENANT -> tenant;
                case PARENT -> TenantPath.parse(tenant).parent().toString();
                case CLUSTER -> "cluster";
            };
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** One step of the window: its statements' periods and one row per group. */
    public record Bucket(Instant start, Instant end, List<String> periods, List<Row> rows) {
    }

    /** Sums over one group's statement lines of one bucket. */
    public record Row(String key, BigDecimal vcoreSeconds, BigDecimal memoryMbSeconds, BigDecimal gpuSeconds,
            BigDecimal actual, BigDecimal counted, BigDecimal entitled, Double rho, BigDecimal charge,
            BigDecimal total) {

        static Row empty(String key) {
            BigDecimal z = BigDecimal.ZERO;
            return new Row(key, z, z, z, z, z, z, null, z, z);
        }

        Row plus(StatementView.Line l) {
            BigDecimal a = actual.add(l.actual());
            BigDecimal e = entitled.add(l.entitled());
            return new Row(key, vcoreSeconds.add(l.vcoreSeconds()), memoryMbSeconds.add(l.memoryMbSeconds()),
                    gpuSeconds.add(l.gpuSeconds()), a, counted.add(l.counted()), e,
                    e.signum() == 0 ? null : a.doubleValue() / e.doubleValue(), charge.add(l.charge()),
                    total.add(l.total()));
        }
    }

    /**
     * Buckets of {@code stepMs} from {@code from} to {@code to} over {@code statements}: each statement goes, whole,
     * into the bucket holding its start, and its lines are summed per {@code aggregate} group.
     *
     * @param statements every statement of the window, any order (the caller chose which)
     */
    public static List<Bucket> buckets(List<StatementView> statements, Instant from, Instant to, long stepMs,
            Aggregate aggregate) {
        List<Bucket> out = new ArrayList<>();
        for (long start = from.toEpochMilli(); start < to.toEpochMilli(); start += stepMs) {
            long end = Math.min(start + stepMs, to.toEpochMilli());
            List<String> periods = new ArrayList<>();
            Map<String, Row> rows = new TreeMap<>();
            for (StatementView s : statements) {
                long at = s.start().toEpochMilli();
                if (at < start || at >= end) {
                    continue;
                }
                periods.add(s.period());
                for (StatementView.Line l : s.lines()) {
                    if (l.inner()) {
                        continue; // an inner tenant's line sums its leaves', which are counted themselves
                    }
                    String key = aggregate.key(l.tenant());
                    rows.put(key, rows.getOrDefault(key, Row.empty(key)).plus(l));
                }
            }
            out.add(new Bucket(Instant.ofEpochMilli(start), Instant.ofEpochMilli(end), periods,
                    List.copyOf(rows.values())));
        }
        return out;
    }
}
