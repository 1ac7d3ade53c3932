package io.fairledger.accounting;

import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.jboss.logging.Logger;

import io.fairledger.core.chargeback.Period;
import io.fairledger.errors.Conflict;
import io.fairledger.facts.FactCursor;
import io.fairledger.facts.RetentionFloors;
import io.fairledger.tenancy.ClosablePeriods;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.TenancyService;

/**
 * When the server closes a cluster's periods: driven by the live ledgers' tick ({@link #closeDue}) and by configuration
 * changes ({@link #closeBeforeChange}), whether or not anyone reads them. The rule itself is {@link PeriodCloser}, run
 * here over the stored facts ({@link StoredFactsBelow}) and the table of closed statements
 * ({@link ClosedStatementTable}).
 */
@ApplicationScoped
public class ClosingService implements ClosablePeriods {

    private static final Logger LOG = Logger.getLogger(ClosingService.class);

    @Inject
    TenancyService tenancy;

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

    /** Per cluster: the configuration version and the watermark at which its next period is due to close. */
    private final Map<String, DueAt> due = new ConcurrentHashMap<>();

    private record DueAt(String version, long watermark) {
    }

    /**
     * Closes the periods of {@code clusterId} that the watermark has passed by their end plus the allowed lateness,
     * each at the transaction that passed it ({@link PeriodCloser#closeDue}), reading only the facts stored by
     * transactions before {@code horizon} (final ones, the same for every replica). Cheap when nothing is due: the
     * instant the next period is due is kept per configuration version.
     *
     * @param version   the cluster's configuration version ({@link TenancyService#configurationVersion})
     * @param watermark the latest event time applied by the caller's live ledger
     */
    public void closeDue(String clusterId, String version, long watermark, String horizon) {
        DueAt next = due.get(clusterId);
        if (next != null && next.version().equals(version) && watermark < next.watermark()) {
            return;
        }
        LedgerSettings settings = inForce.settings(clusterId);
        ClosedStatementTable table = new ClosedStatementTable(dataSource, json, clusterId, settings, keys);
        List<PeriodCloser.ClosedPeriod> closed = closer(clusterId, table, horizon).closeDue(settings);
        closed.forEach(c -> LOG.debugf("cluster %s: period %s closed", clusterId, c.statement().period()));
        Period open = PeriodCloser.nextToClose(settings, table.closed());
        due.put(clusterId, new DueAt(version, open.end() + settings.lateness().toMillis()));
    }

    /**
     * Closes what is due, then every period that has ended by the latest stored fact, under the settings in force
     * ({@link PeriodCloser#closeEnded}), and returns the start of the open period, from which a configuration change
     * takes effect; null when the cluster has no ledger settings yet (then a change counts from its registration).
     */
    @Override
    public Instant closeBeforeChange(String clusterId) {
        if (!tenancy.hasLedgerSettings(clusterId)) {
            return null;
        }
        floors.of(clusterId).ifPresent(floor -> {
            throw new Conflict("the facts of cluster '" + clusterId + "' before " + floor.replayableFrom()
                    + " were dropped by retention (fairledger.retention.facts), and a change of its ledger settings or "
                    + "tenants replays its ledger from the registration under the new configuration: this server "
                    + "cannot make that change; the oldest instant still replayable is " + floor.replayableFrom());
        });
        LedgerSettings settings = inForce.settings(clusterId);
        due.remove(clusterId);
        try {
            return closer(clusterId, new ClosedStatementTable(dataSource, json, clusterId, settings, keys),
                    facts.horizon())
                    .closeEnded(settings);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the fact horizon for " + clusterId, e);
        }
    }

    /**
     * The closer of {@code clusterId} over the facts stored before {@code horizon}; once retention has dropped facts of
     * the cluster, it starts only from stored states at or after the pinned checkpoint ({@link StoredFactsBelow}).
     */
    private PeriodCloser closer(String clusterId, ClosedStatementTable table, String horizon) {
        return new PeriodCloser(clusterId, table,
                new StoredFactsBelow(facts, states, clusterId, horizon, floors.of(clusterId)));
    }
}
