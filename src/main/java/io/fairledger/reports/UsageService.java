package io.fairledger.reports;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.replay.Schedule;
import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.LedgerSettings;

/**
 * Usage reports of a cluster over any window ({@link UsageReport}), from the statements the statements endpoint gives:
 * periods that have ended by now, closed or provisional as there. Parameters are checked here so that each bad one is
 * a 422 naming it.
 */
@ApplicationScoped
public class UsageService {

    /** The most buckets one report may have: a bound on the answer's size, not on the window. */
    public static final int MAX_BUCKETS = 10_000;

    @Inject
    StatementService statements;

    @Inject
    SettingsInForce inForce;

    /**
     * What a usage report is asked for; every field may be null (its default).
     *
     * @param from       window start, an ISO-8601 instant; default the registration
     * @param to         window end, an ISO-8601 instant; default now
     * @param step       bucket length, an ISO-8601 duration, a whole number of periods; default the window
     * @param aggregate  tenant, parent or cluster; default tenant
     * @param accumulate {@code true}: the steps summed into one bucket over the window (OpenCost's
     *                   {@code accumulate}); default false
     * @param tenant     a tenant path: only the lines of that tenant and the tenants under it; default every tenant
     */
    public record Query(String from, String to, String step, String aggregate, String accumulate, String tenant) {
    }

    /**
     * The report of {@code clusterId} asked for by {@code query} over {@code [from, to)}, in buckets of whole periods,
     * over the lines {@code visible} keeps.
     */
    public UsageReport report(String clusterId, Query query, Predicate<String> visible) {
        String from = query.from();
        String to = query.to();
        String step = query.step();
        String aggregate = query.aggregate();
        boolean accumulate = accumulate(query.accumulate());
        TenantPath under = tenant(query.tenant());
        LedgerSettings settings = inForce.settings(clusterId);
        Instant now = Instant.now();
        Instant start = from == null || from.isBlank() ? settings.registeredAt() : instant("from", from);
        Instant end = to == null || to.isBlank() ? now : instant("to", to);
        if (!end.isAfter(start)) {
            throw Invalid.field("query.to", "to " + end + " must be after from " + start);
        }
        UsageReport.Aggregate by = aggregate(aggregate);
        Schedule periods = settings.schedule();
        Instant first = Instant.ofEpochMilli(periods.periodOf(start.toEpochMilli()).start());
        Instant last = Instant.ofEpochMilli(periods.periodOf(end.toEpochMilli() - 1).end());
        long stepMs = step == null || step.isBlank()
                ? last.toEpochMilli() - first.toEpochMilli()
                : stepMs(step, periods.nominalMs());
        if (accumulate) {
            stepMs = last.toEpochMilli() - first.toEpochMilli();
        }
        long count = (last.toEpochMilli() - first.toEpochMilli() + stepMs - 1) / stepMs;
        if (count > MAX_BUCKETS) {
            throw Invalid.field("query.step", "the window would have " + count + " steps, more than " + MAX_BUCKETS
                    + ": take a longer step or a shorter window");
        }
        List<StatementView> inWindow = last.isAfter(settings.registeredAt())
                ? statements.statements(clusterId, min(last, now)).stream()
                        .filter(s -> !s.start().isBefore(first) && s.start().isBefore(last))
                        .map(s -> visibleLines(s, t -> visible.test(t)
                                && (under == null || TenantPath.parse(t).isWithin(under))))
                        .toList()
                : List.of();
        return new UsageReport(clusterId, start, end, first, last, Duration.ofMillis(stepMs).toString(), by.label(),
                currency(inWindow, settings.currency()), UsageReport.buckets(inWindow, first, last, stepMs, by));
    }

    /**
     * The one currency of {@code statements} (each is in the currency its period was closed in), {@code fallback}
     * when there is none; 422 for a window over a change of currency, whose sums would add up different money.
     */
    private static String currency(List<StatementView> statements, String fallback) {
        List<String> currencies = statements.stream().map(StatementView::currency).distinct().toList();
        if (currencies.size() > 1) {
            throw Invalid.field("query.from", "the window holds periods in " + String.join(" and ", currencies)
                    + ": the cluster's currency changed; ask for the windows on either side of the change");
        }
        return currencies.isEmpty() ? fallback : currencies.get(0);
    }

    private static StatementView visibleLines(StatementView s, Predicate<String> visible) {
        return s.withLines(s.lines().stream().filter(l -> visible.test(l.tenant())).toList());
    }

    private static long stepMs(String text, long periodMs) {
        Duration step;
        try {
            step = Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw Invalid.field("query.step", "step must be an ISO-8601 duration such as PT1H or P1D, got '" + text
                    + "'");
        }
        if (step.isNegative() || step.isZero() || step.toMillis() % periodMs != 0) {
            throw Invalid.field("query.step", "step must be a positive whole number of periods ("
                    + Duration.ofMillis(periodMs) + "), got " + step);
        }
        return step.toMillis();
    }

    private static boolean accumulate(String text) {
        if (text == null || text.isBlank()) {
            return false;
        }
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw Invalid.field("query.accumulate", "accumulate must be true or false, got '" + text + "'");
        };
    }

    private static TenantPath tenant(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return TenantPath.parse(text.strip());
        } catch (IllegalArgumentException e) {
            throw Invalid.field("query.tenant", "tenant must be a tenant path such as root.a, got '" + text + "': "
                    + e.getMessage());
        }
    }

    private static UsageReport.Aggregate aggregate(String text) {
        if (text == null || text.isBlank()) {
            return UsageReport.Aggregate.TENANT;
        }
        try {
            return UsageReport.Aggregate.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw Invalid.field("query.aggregate", "aggregate must be tenant, parent or cluster, got '" + text + "'");
        }
    }

    private static Instant instant(String name, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw Invalid.field("query." + name, name + " must be an ISO-8601 instant such as 2026-11-22T00:00:00Z, "
                    + "got '" + text + "'");
        }
    }

    private static Instant min(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
