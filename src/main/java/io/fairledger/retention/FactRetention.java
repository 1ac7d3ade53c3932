package io.fairledger.retention;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.scheduler.Scheduled;
import org.jboss.logging.Logger;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.StatementService;
import io.fairledger.audit.AuditRows;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.FactPartitions;
import io.fairledger.facts.FactPartitions.Partition;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.live.BoundedReplays;
import io.fairledger.live.LedgerCheckpoints;
import io.fairledger.live.LiveLedger;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.TenancyService;

/**
 * Keeps {@code ledger_fact}'s month partitions (docs/operations.md, "Retention of facts"): creates them ahead of time,
 * and, with {@code fairledger.retention.facts} set, drops the oldest months older than that once nothing needs their
 * facts. A month is dropped only when, for every cluster with facts in it:
 * <ul>
 * <li>every period overlapping the month is closed (its statement stored: stored statements stay forever);</li>
 * <li>every closed period after the month was kept under the live settings (a late fact for one is priced by a
 * replay under the settings it was kept under, which can start only from a checkpoint under those settings);</li>
 * <li>a usable checkpoint of its live ledger under the live settings holds every fact before the month's end, within
 * the closed periods: it is pinned, and the cluster's floor ({@link RetentionFloors}) set just after it, so restarts,
 * late-fact rebuilds, period closes and what-ifs start from it, never from the registration.</li>
 * </ul>
 * Each drop, and each refusal with its reason (once per reason), is an audit entry by {@value #ACTOR}, committed with
 * the drop. Replicas run it one at a time: a pass runs only while holding a PostgreSQL advisory lock, and a replica
 * that does not get it skips the pass.
 */
@ApplicationScoped
public class FactRetention {

    private static final Logger LOG = Logger.getLogger(FactRetention.class);

    /** Who audit entries name. */
    public static final String ACTOR = "fairledger-retention";
    /** The advisory lock key of a pass (one for the whole database). */
    private static final String LOCK_KEY = "fairledger.retention";

    /** What one pass did. */
    public record Pass(boolean ran, List<Partition> created, List<Partition> dropped, List<Refusal> refused) {
    }

    /** Why the oldest month due was kept. */
    public record Refusal(Partition partition, String reason) {
    }

    @Inject
    DataSource dataSource;

    @Inject
    FairledgerConfig config;

    @Inject
    StatementService statements;

    @Inject
    SettingsInForce inForce;

    @Inject
    TenancyService tenancy;

    @Inject
    BoundedReplays replays;

    @Inject
    FactCursor cursor;

    @Inject
    ObjectMapper json;

    @Scheduled(every = "${fairledger.retention.interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            Pass pass = run(Instant.now(), config.retention().facts());
            pass.dropped().forEach(p -> LOG.infof("retention: dropped %s", p.name()));
            pass.refused().forEach(r -> LOG.debugf("retention: kept %s: %s", r.partition().name(), r.reason()));
        } catch (SQLException | RuntimeException e) {
            LOG.warnf(e, "retention: pass failed, retried at the next one");
        }
    }

    /**
     * One pass at {@code now}: creates the month partitions due, then, when facts are kept for {@code keep} only,
     * drops each month that ended before {@code now - keep} and that nothing needs, oldest first (a month still needed
     * does not keep a later one: the floors only move forward). Skipped (nothing done) while another replica runs one.
     */
    @ActivateRequestContext
    public Pass run(Instant now, Optional<Duration> keep) throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            if (!lock(c, "pg_try_advisory_lock")) {
                return new Pass(false, List.of(), List.of(), List.of());
            }
            try {
                return locked(c, now, keep);
            } finally {
                lock(c, "pg_advisory_unlock");
            }
        }
    }

    private Pass locked(Connection c, Instant now, Optional<Duration> keep) throws SQLException {
        List<Partition> created = inTransaction(c, () -> FactPartitions.ensure(c, now,
                config.retention().monthsAhead()));
        List<Partition> dropped = new ArrayList<>();
        List<Refusal> refused = new ArrayList<>();
        if (keep.isEmpty()) {
            return new Pass(true, created, dropped, refused);
        }
        long cutoff = now.minus(keep.get()).toEpochMilli();
        for (Partition p : FactPartitions.months(c)) {
            if (p.toMs() > cutoff) {
                break;
            }
            Optional<Refusal> refusal = inTransaction(c, () -> dropIfUnneeded(c, p));
            if (refusal.isPresent()) {
                refused.add(refusal.get());
            } else {
                dropped.add(p);
                inTransaction(c, () -> FactPartitions.forgetKeys(c, p));
            }
        }
        return new Pass(true, created, dropped, refused);
    }

    /** Drops {@code p} with its audit entry, pinning and setting each cluster's floor; or audits why not. */
    private Optional<Refusal> dropIfUnneeded(Connection c, Partition p) throws SQLException {
        String horizon = cursor.horizon();
        long facts = FactPartitions.rows(c, p);
        Map<String, RetentionFloors.Floor> floors = new LinkedHashMap<>();
        for (String cluster : FactPartitions.clustersIn(c, p)) {
            Verdict verdict = verdict(c, cluster, p, horizon);
            if (verdict.keptBecause() != null) {
                return Optional.of(refuse(c, p, facts, verdict.keptBecause()));
            }
            floors.put(cluster, verdict.floor());
        }
        for (Map.Entry<String, RetentionFloors.Floor> e : floors.entrySet()) {
            RetentionFloors.Floor floor = e.getValue();
            if (!LedgerCheckpoints.pin(c, e.getKey(), floor.settingsVersion(), floor.checkpointMs())) {
                c.rollback();
                return Optional.of(refuse(c, p, facts, "cluster " + e.getKey() + ": its checkpoint at "
                        + Instant.ofEpochMilli(floor.checkpointMs()) + " was pruned meanwhile"));
            }
            RetentionFloors.set(c, e.getKey(), floor);
        }
        FactPartitions.drop(c, p);
        Map<String, Object> before = describe(p, facts);
        Map<String, String> replayableFrom = new LinkedHashMap<>();
        floors.forEach((cluster, floor) -> replayableFrom.put(cluster, floor.replayableFrom().toString()));
        before.put("replayableFrom", replayableFrom);
        AuditRows.record(c, ACTOR, null, subject(p), toJson(before), null, Instant.ofEpochMilli(p.toMs()));
        return Optional.empty();
    }

    /** The floor a cluster gets when a month is dropped, or why the month is still needed for it. */
    private record Verdict(RetentionFloors.Floor floor, String keptBecause) {

        static Verdict kept(String cluster, String because) {
            return new Verdict(null, "cluster " + cluster + ": " + because);
        }
    }

    /** The verdict on dropping {@code p} for {@code cluster}. */
    private Verdict verdict(Connection c, String cluster, Partition p, String horizon) throws SQLException {
        Instant registeredAt = tenancy.registrations().get(cluster);
        if (registeredAt == null) {
            return Verdict.kept(cluster, "no such cluster is registered, so none of its periods is closed");
        }
        if (registeredAt.equals(Instant.MIN)) {
            return Verdict.kept(cluster, "it has no ledger settings, so none of its periods is closed");
        }
        Instant closedUntil = statements.closedUntil(cluster);
        if (closedUntil == null || closedUntil.toEpochMilli() < p.toMs()) {
            return Verdict.kept(cluster,
                    "a period overlapping the month is not closed (closed until " + closedUntil + ")");
        }
        LedgerSettings settings = inForce.settings(cluster);
        Optional<String> other = statements.closedUnderOtherSettings(cluster, p.toMs());
        if (other.isPresent()) {
            return Verdict.kept(cluster,
                    "period " + other.get() + ", closed after the month, was kept under other settings than "
                            + "the live ones");
        }
        Optional<RetentionFloors.Floor> current = RetentionFloors.of(c, cluster);
        if (current.isPresent() && current.get().replayableFrom().toEpochMilli() >= p.toMs()) {
            return new Verdict(current.get(), null);
        }
        Optional<LedgerCheckpoints.Stored> checkpoint = replays.oldestUsableHolding(cluster, settings, p.toMs(),
                horizon);
        if (checkpoint.isEmpty()) {
            return Verdict.kept(cluster,
                    "no usable checkpoint of its live ledger under the live settings holds every fact before "
                            + Instant.ofEpochMilli(p.toMs()));
        }
        long at = checkpoint.get().eventTimeMs();
        if (at >= closedUntil.toEpochMilli()) {
            return Verdict.kept(cluster, "the oldest checkpoint holding the month, at " + Instant.ofEpochMilli(at)
                    + ", is not within the closed periods (closed until " + closedUntil + ")");
        }
        return new Verdict(new RetentionFloors.Floor(Instant.ofEpochMilli(at + 1),
                LiveLedger.settingsVersion(cluster, settings, at)), null);
    }

    /** Audits a refusal (unless the newest entry about {@code p} refused it for the same reason). */
    private Refusal refuse(Connection c, Partition p, long facts, String reason) throws SQLException {
        Map<String, Object> after = Map.of("kept", true, "reason", reason);
        String previous = AuditRows.newestAfter(c, subject(p));
        if (previous == null || !previous.contains(toJson(reason))) {
            AuditRows.record(c, ACTOR, null, subject(p), toJson(describe(p, facts)), toJson(after), Instant.now());
        }
        return new Refusal(p, reason);
    }

    private static String subject(Partition p) {
        return "fact-retention " + p.name();
    }

    private static Map<String, Object> describe(Partition p, long facts) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("partition", p.name());
        out.put("from", Instant.ofEpochMilli(p.fromMs()).toString());
        out.put("until", Instant.ofEpochMilli(p.toMs()).toString());
        out.put("facts", facts);
        return out;
    }

    private String toJson(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise an audit value", e);
        }
    }

    private static boolean lock(Connection c, String function) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + function + "(hashtext(?))")) {
            ps.setString(1, LOCK_KEY);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    private interface Work<T> {
        T run() throws SQLException;
    }

    /** Runs {@code work} in one transaction on {@code c}, committed when it returns, rolled back when it throws. */
    private static <T> T inTransaction(Connection c, Work<T> work) throws SQLException {
        c.setAutoCommit(false);
        try {
            T out = work.run();
            c.commit();
            return out;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
