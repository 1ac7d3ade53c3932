package io.fairledger.accounting;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.chargeback.Period;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.ClosablePeriods;
import io.fairledger.tenancy.LedgerSettings;

/**
 * When the server closes a cluster's periods: driven by the live ledgers' tick ({@link #closeDue}) and by configuration
 * changes ({@link #closeBeforeChange}), whether or not anyone reads them. The rule itself is {@link PeriodCloser}, run
 * here over the stored facts ({@link StoredFactsBelow}) and the table of closed statements
 * ({@link ClosedStatementTable}), with the source watermarks recorded at the latest closing position
 * ({@link ClosingWatermarkTable}). On the tick only the cluster's writer closes ({@link ClusterWriter}); counter
 * {@value #CLOSED}: the periods this replica closed.
 */
@ApplicationScoped
public class ClosingService implements ClosablePeriods {

    private static final Logger LOG = Logger.getLogger(ClosingService.class);
    /** Counter per cluster: the periods this replica closed (one replica closes each: docs/operations.md). */
    public static final String CLOSED = "fairledger.closing.periods";
    /**
     * Counter per cluster and {@code from}: the statements the closer needed at its closes, taken from the live ledger
     * ({@code held}) or replayed from the stored facts ({@code replayed}).
     */
    public static final String STATED = "fairledger.closing.statements";

    @Inject
    SettingsInForce inForce;

    @Inject
    FactCursor facts;

    @Inject
    StoredLedgerStates states;

    @Inject
    RetentionFloors floors;

    @Inject
    DataSource dataSource;

    @Inject
    LedgerKeys keys;

    @Inject
    ObjectMapper json;

    @Inject
    ClusterWriter writer;

    @Inject
    MeterRegistry registry;

    @Inject
    FairledgerConfig config;

    /**
     * Per cluster: the watermark at which its next period is due to close, under the schedule it was computed for (a
     * change of tenants, weights or prices leaves it as it is; one of the periods, the lateness or the registration
     * does not).
     */
    private final Map<String, DueAt> due = new ConcurrentHashMap<>();

    private record DueAt(List<Object> schedule, long watermark, Instant closedUntil) {
    }

    /** What of {@code settings} decides when a period is due to close. */
    private static List<Object> scheduleOf(LedgerSettings settings) {
        return Arrays.asList(settings.registeredAt(), settings.period(), settings.lateness());
    }

    /** Keeps when the next period of {@code clusterId} is due, the periods up to {@code closedUntil} closed. */
    private void keepDue(String clusterId, LedgerSettings settings, Instant closedUntil) {
        Period open = PeriodCloser.nextToClose(settings, closedUntil);
        due.put(clusterId, new DueAt(scheduleOf(settings), open.end() + settings.lateness().toMillis(),
                closedUntil));
    }

    /** {@code fairledger.closing.source-idle-timeout}, checked, and the sources found idle. */
    private IdleSourceLog idle;

    /**
     * Closes the periods of {@code clusterId} that the watermark has passed by their end plus the allowed lateness,
     * each at the transaction that passed it ({@link PeriodCloser#closeDue}), reading only the facts stored by
     * transactions before {@code horizon} (final ones, the same for every replica). Cheap when nothing is due: the
     * instant the next period is due is kept, and holds until the schedule changes. Nothing on a replica that is not
     * the cluster's writer.
     *
     * @param watermark the latest event time applied by the caller's live ledger (the closing watermark is at most it)
     * @param held      what that ledger, holding every fact stored before {@code horizon}, has stated: the closer takes
     *                  statements from it rather than replaying when no later stored fact changes them
     */
    public void closeDue(String clusterId, long watermark, String horizon, HeldStatements held) {
        if (!writer.writes(clusterId)) {
            due.remove(clusterId);
            return;
        }
        LedgerSettings settings = inForce.settings(clusterId);
        DueAt next = due.get(clusterId);
        if (next != null && next.schedule().equals(scheduleOf(settings)) && watermark < next.watermark()) {
            return;
        }
        ClosedStatementTable table = new ClosedStatementTable(dataSource, json, clusterId, settings, keys);
        PeriodCloser closer = closer(clusterId, table, horizon, held);
        List<PeriodCloser.ClosedPeriod> closed = closer.closeDue(settings);
        closed.forEach(c -> LOG.debugf("cluster %s: period %s closed", clusterId, c.statement().period()));
        Counter.builder(CLOSED).description("periods this replica closed").tag(MetricNames.CLUSTER, clusterId)
                .register(registry).increment(closed.size());
        stated(clusterId, "held", closer.replays().held());
        stated(clusterId, "replayed", closer.replays().replayed());
        idle.log(clusterId, closer.idleSources());
        keepDue(clusterId, settings, closed.isEmpty()
                ? closedUntil(clusterId)
                : closed.get(closed.size() - 1).statement().end());
    }

    /**
     * The position of the first transaction stored before {@code horizon} at which a period of {@code clusterId} is
     * due to close ({@link PeriodCloser#firstDue}), for a live ledger's tick to stop just after it and hand the closer
     * the statements it holds ({@link HeldStatements}); empty on a replica that is not the cluster's
     * writer, or when no fact at or before {@code latest} can bring one due (as {@link #closeDue} finds cheaply).
     *
     * @param latest the latest event time among the facts stored before {@code horizon}
     */
    public OptionalLong firstDue(String clusterId, long latest, String horizon) {
        if (!writer.writes(clusterId)) {
            return OptionalLong.empty();
        }
        LedgerSettings settings = inForce.settings(clusterId);
        DueAt next = due.get(clusterId);
        if (next != null && next.schedule().equals(scheduleOf(settings)) && latest < next.watermark()) {
            return OptionalLong.empty();
        }
        ClosedStatementTable table = new ClosedStatementTable(dataSource, json, clusterId, settings, keys);
        return closer(clusterId, table, horizon, HeldStatements.NONE).firstDue(settings);
    }

    /**
     * The end of the last period of {@code clusterId} stored closed; null when none is. The cluster's writer knows it
     * from its last close; another replica reads it. It never goes back, so a value read earlier is only lower.
     */
    public Instant closedUntil(String clusterId) {
        DueAt next = due.get(clusterId);
        if (next != null) {
            return next.closedUntil();
        }
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement(
                        "SELECT max(period_end_ms) FROM closed_statement WHERE cluster_id = ?")) {
            ps.setString(1, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                long end = rs.getLong(1);
                return rs.wasNull() ? null : Instant.ofEpochMilli(end);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the closed periods of " + clusterId, e);
        }
    }

    /**
     * Closes what is due, then every period that has ended by the latest stored fact, under the settings in force
     * ({@link PeriodCloser#closeEnded}), and returns the instant from which a configuration change takes effect: just
     * after the latest stored fact, or the start of the open period when no stored fact is in it (docs/domain.md,
     * "Settings changes are prospective"); null when the cluster has no ledger settings yet (then a change counts from
     * its registration). A fact stored later for an earlier instant is a late fact, counted under the settings then in
     * force.
     */
    @Override
    public Instant closeBeforeChange(String clusterId, LedgerSettings settings) {
        if (settings == null) {
            return null;
        }
        try {
            Long latest = facts.latestStored(clusterId);
            Instant closed = closedUntil(clusterId);
            due.remove(clusterId);
            Period next = PeriodCloser.nextToClose(settings, closed);
            Instant open = Instant.ofEpochMilli(next.start());
            // no stored fact is at or after the end of the next period to close: none has ended by the latest fact,
            // and none is due (the closing watermark is the event time of a stored fact): nothing to read or close
            if (latest != null && latest >= next.end()) {
                open = closer(clusterId, new ClosedStatementTable(dataSource, json, clusterId, settings, keys),
                        facts.horizon(), HeldStatements.NONE).closeEnded(settings);
                closed = closedUntil(clusterId);
            }
            // every period ended is closed: the next one is due as closeDue would find (should the change move the
            // schedule, closeDue finds another schedule and looks again)
            keepDue(clusterId, settings, closed);
            return latest == null || latest < open.toEpochMilli() ? open : Instant.ofEpochMilli(latest + 1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the fact horizon for " + clusterId, e);
        }
    }

    @Override
    public Optional<Instant> replayableFrom(String clusterId) {
        return floors.of(clusterId).map(RetentionFloors.Floor::replayableFrom);
    }

    /**
     * The closer of {@code clusterId} over the facts stored before {@code horizon}; once retention has dropped facts of
     * the cluster, it starts only from stored states at or after the pinned checkpoint ({@link StoredFactsBelow}).
     */
    private PeriodCloser closer(String clusterId, ClosedStatementTable table, String horizon,
            HeldStatements held) {
        return new PeriodCloser(clusterId, table,
                new StoredFactsBelow(facts, states, clusterId, horizon, floors.of(clusterId), held),
                new ClosingWatermarkTable(dataSource, json, clusterId), idle.timeout().toMillis());
    }

    /** Refuses {@code fairledger.closing.source-idle-timeout} outside its bounds, naming the key. */
    @PostConstruct
    void init() {
        idle = new IdleSourceLog(config.closing().sourceIdleTimeout());
    }

    private void stated(String clusterId, String from, long count) {
        Counter.builder(STATED).description("statements the closer took from the live ledger or replayed")
                .tag(MetricNames.CLUSTER, clusterId).tag("from", from).register(registry).increment(count);
    }
}
