package io.fairledger.ingest;

import java.util.List;
import java.util.function.Predicate;

import io.fairledger.facts.Dedupe;
import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.FairledgerEvent;

/**
 * The one intake of an event, for the consumer and for {@code fairledger account}: a decoded record (decoded and
 * validated by the {@link io.fairledger.ingest.schema.EventDecoder}) is checked against the registered clusters,
 * normalised into ledger facts ({@link Normaliser}) and, over a whole stream, deduplicated ({@link #dedupe}, the rule
 * {@code ledger_fact}'s primary key applies to what the consumer stores). Pure: no I/O, no state but the cluster
 * check it is given.
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

    /** Ledger facts; none when the event has no accounting meaning. */
    public record Facts(FairledgerEvent event, List<LedgerFact> facts) implements Outcome {
    }

    private final Predicate<String> knownCluster;

    /** @param knownCluster whether a cluster id is registered (the consumer asks tenancy; {@code account} any) */
    public Intake(Predicate<String> knownCluster) {
        this.knownCluster = knownCluster;
    }

    /** Decoded -> cluster check -> normalised. */
    public Outcome accept(Decoded decoded) {
        if (decoded instanceof Decoded.Rejected rejected) {
            return new Rejected(rejected.rejection().reason().code(), rejected.rejection().describe());
        }
        FairledgerEvent event = ((Decoded.Ok) decoded).event();
        if (!knownCluster.test(event.cluster())) {
            return new Rejected("unknown-cluster", "unknown-cluster: no cluster '" + event.cluster()
                    + "' is registered");
        }
        Normaliser.Result result = Normaliser.normalise(event);
        if (result instanceof Normaliser.Invalid invalid) {
            return new Rejected("invalid", "invalid: " + invalid.reason());
        }
        if (result instanceof Normaliser.Admission) {
            return new Admission(event);
        }
        return new Facts(event, ((Normaliser.Facts) result).facts());
    }

    /** The facts of {@code clusterId}, the first of each dedupe key kept ({@link Dedupe}). */
    public static List<LedgerFact> dedupe(List<LedgerFact> facts, String clusterId) {
        return Dedupe.firstOfEachKey(facts.stream().filter(f -> f.clusterId().equals(clusterId)).toList(), f -> f);
    }
}
