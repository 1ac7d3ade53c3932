package io.fairledger.ingest;

import java.time.Instant;
import java.util.List;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.Dedupe;
import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.MesosTaskStatus;

/**
 * The one intake of an event, for the consumer and for {@code fairledger account}: a decoded record (decoded and
 * validated by the {@link io.fairledger.ingest.schema.EventDecoder}) is checked against the registered clusters,
 * normalised into ledger facts ({@link Normaliser}), held to the bound on the tenants events create
 * ({@link TenantBound}) and, over a whole stream, deduplicated ({@link #dedupe}, the rule
 * {@code ledger_fact}'s primary key applies to what the consumer stores). Pure: no I/O, no state but the registered
 * clusters, the known task starts and the tenant bound it is given.
 */
public final class Intake {

    /** What became of one record. */
    public sealed interface Outcome {
    }

    /**
     * Not accepted: a dead letter.
     *
     * @param code   a stable reason code (bounded set: a metric's tag)
     * @param reason the full reason, starting with the code
     */
    public record Rejected(String code, String reason) implements Outcome {
    }

    /** A job or workflow record, kept for the admission service. */
    public record Admission(FairledgerEvent event) implements Outcome {
    }

    /**
     * Ledger facts; none when the event has no accounting meaning.
     *
     * @param resourced whether the event is a Mesos task's that carries its resources: its start releases the task's
     *                  {@link WaitingStarts}
     */
    public record Facts(FairledgerEvent event, List<LedgerFact> facts, boolean resourced) implements Outcome {
    }

    /** A Mesos task start without resources, none of its task known yet: it waits ({@link WaitingStarts}). */
    public record Waiting(FairledgerEvent event, Normaliser.Unresourced start) implements Outcome {
    }

    /** What the intake knows of the registered clusters. */
    @FunctionalInterface
    public interface Clusters {
        /**
         * When {@code clusterId}'s books start: null when no such cluster is registered, the {@code registeredAt} of
         * its ledger settings, or {@link Instant#MIN} while it has none.
         */
        Instant registeredAt(String clusterId);

        /**
         * From when {@code clusterId}'s facts are kept: its retention floor (facts before it were dropped, the ledger
         * there is a pinned checkpoint), or null when retention has dropped none.
         */
        default Instant keptFrom(String clusterId) {
            return null;
        }
    }

    /** The reason code of an event before its cluster's {@code registeredAt}. */
    public static final String BEFORE_REGISTRATION = "before-registration";
    /** The reason code of an event before its cluster's retention floor. */
    public static final String BEFORE_RETENTION = "before-retention";

    private final Clusters clusters;
    private final KnownStarts starts;
    private final TenantBound tenants;

    /**
     * @param clusters the registered clusters (the consumer asks tenancy; {@code account} takes every cluster as
     *                 registered at its settings' {@code registeredAt})
     * @param starts   tasks' earlier starts, for a Mesos update that does not repeat its resources
     * @param tenants  the bound on the tenants events may create in a cluster
     */
    public Intake(Clusters clusters, KnownStarts starts, TenantBound tenants) {
        this.clusters = clusters;
        this.starts = starts;
        this.tenants = tenants;
    }

    /** Decoded -> cluster check -> normalised. */
    public Outcome accept(Decoded decoded) {
        if (decoded instanceof Decoded.Rejected rejected) {
            return new Rejected(rejected.rejection().reason().code(), rejected.rejection().describe());
        }
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        Instant registeredAt = clusters.registeredAt(event.cluster());
        if (registeredAt == null) {
            return new Rejected("unknown-cluster", "unknown-cluster: no cluster '" + event.cluster()
                    + "' is registered");
        }
        if (event.eventTime().isBefore(registeredAt)) {
            return new Rejected(BEFORE_REGISTRATION, BEFORE_REGISTRATION + ": eventTime " + event.eventTime()
                    + " is before cluster '" + event.cluster() + "' was registered (" + registeredAt
                    + "); its books start there");
        }
        Instant keptFrom = clusters.keptFrom(event.cluster());
        if (keptFrom != null && event.eventTime().isBefore(keptFrom)) {
            return new Rejected(BEFORE_RETENTION, BEFORE_RETENTION + ": eventTime " + event.eventTime()
                    + " is before " + keptFrom + ", from which cluster '" + event.cluster() + "' keeps its facts: "
                    + "older ones were dropped by retention and its books there are closed and fixed");
        }
        Normaliser.Result result = Normaliser.normalise(event, starts);
        if (result instanceof Normaliser.Invalid invalid) {
            return new Rejected("invalid", "invalid: " + invalid.reason());
        }
        if (result instanceof Normaliser.Admission) {
            return new Admission(event);
        }
        if (result instanceof Normaliser.Unresourced start) {
            return new Waiting(event, start);
        }
        List<LedgerFact> facts = ((Normaliser.Facts) result).facts();
        for (LedgerFact fact : facts) {
            TenantPath tenant = tenantOf(fact);
            String refused = tenant == null ? null : tenants.admit(event.cluster(), tenant);
            if (refused != null) {
                return new Rejected(TenantBound.TOO_MANY_TENANTS, refused);
            }
        }
        if (keptFrom != null) {
            // a finish repeats its task's start, which may lie before the floor: the pinned ledger holds it
            long from = keptFrom.toEpochMilli();
            facts = facts.stream().filter(f -> f.at() >= from).toList();
        }
        return new Facts(event, facts, event instanceof MesosTaskStatus m && Normaliser.carriesResources(m));
    }

    /** The tenant a fact creates when the ledger does not know it yet, or null. */
    private static TenantPath tenantOf(LedgerFact fact) {
        if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted s) {
            return s.tenant();
        }
        if (fact instanceof LedgerFact.Demand d) {
            return TenantPath.parse(d.tenant());
        }
        return null;
    }

    /** The facts of {@code clusterId}, one of each dedupe key kept ({@link Dedupe}: a task's earliest start). */
    public static List<LedgerFact> dedupe(List<LedgerFact> facts, String clusterId) {
        return Dedupe.keptOfEachKey(facts.stream().filter(f -> f.clusterId().equals(clusterId)).toList(), f -> f);
    }
}
