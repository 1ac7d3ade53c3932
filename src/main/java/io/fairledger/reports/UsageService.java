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
     * The report of {@code clusterId} over {@code [from, to)} (ISO-8601 instants; from defaults to the registration,
     * to to now) in steps of {@code step} (an ISO-8601 duration, a whole number of periods; default the whole window),
     * grouped by {@code aggregate} (tenant, parent or cluster; default tenant), over the lines {@code visible} keeps.
     */
    public UsageReport report(String clusterId, String from, String to, String step, String aggregate,
            Predicate<String> visible) {
        LedgerSettings settings = inForce.settings(clusterId);
        Instant now = Instant.now();
        Instant start = from == null || from.isBlank() ? settings.registeredAt() : instant("from", from);
        Instant end = to == null || to.isBlank() ? now : instant("to", to);
        if (!end.isAfter(start)) {
            throw Invalid.field("query.to", "to " + end + " must be after from " + start);
        }
        UsageReport.Aggregate by = aggregate(aggregate);
        Schedule periods = settings.toReplayConfig(clusterId, settings.registeredAt()).periods();
        Instant first = Instant.ofEpochMilli(periods.periodOf(start.toEpochMilli()).start());
        Instant last = Instant.ofEpochMilli(periods.periodOf(end.toEpochMilli() - 1).end());
        long stepMs = step == null || step.isBlank()
                ? last.toEpochMilli() - first.toEpochMilli()
                : stepMs(step, periods.nominalMs());
        long count = (last.toEpochMilli() - first.toEpochMilli() + stepMs - 1) / stepMs;
        if (count > MAX_BUCKETS) {
            throw Invalid.field("query.step", "the window would have " + count + " steps, more than " + MAX_BUCKETS
                    + ": take a longer step or a shorter window");
        }
        List<StatementView> inWindow = last.isAfter(settings.registeredAt())
                ? statements.statements(clusterId, min(last, now)).stream()
                        .filter(s -> !s.start().isBefore(first) && s.start().isBefore(last))
                        .map(s -> visibleLines(s, visible)).toList()
                : List.of();
        return new UsageReport(clusterId, start, end, first, last, Duration.ofMillis(stepMs).toString(), by.label(),
                settings.currency(), UsageReport.buckets(inWindow, first, last, stepMs, by));
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
