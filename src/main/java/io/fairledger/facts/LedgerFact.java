package io.fairledger.facts;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;

/**
 * One fact a resource manager reported, as stored and replayed: a {@link LedgerEvent}, or a report that needs the
 * facts before it to become one (a node's capacity, an application's pending demand). The accounting package's
 * {@code LedgerFeed} turns an ordered list of facts into ledger events. Every fact carries its {@code dedupeKey}: two facts with the same key are
 * the same report delivered twice.
 */
public sealed interface LedgerFact {

    String clusterId();

    /** Event time, epoch millis. */
    long at();

    /** Identifies the report: {@code task:<id>:start}, {@code task:<id>:finish} or {@code event:<eventId>}. */
    String dedupeKey();

    /** A ledger event as it stands. */
    record Event(LedgerEvent event, String dedupeKey) implements LedgerFact {
        @Override
        public String clusterId() {
            return event.clusterId();
        }

        @Override
        public long at() {
            return event.at();
        }
    }

    /** A node joined with {@code capacity}, or left ({@code capacity} zero). */
    record NodeCapacity(String clusterId, String node, ResourceVector capacity, long at, String dedupeKey)
            implements
                LedgerFact {
    }

    /** An application's (or, with an empty application id, a tenant's) pending resources are now {@code pending}. */
    record Demand(String clusterId, String tenant, String applicationId, ResourceVector pending, long at,
            String dedupeKey) implements LedgerFact {
    }

    static String taskKey(String taskId, boolean start) {
        return "task:" + taskId + (start ? ":start" : ":finish");
    }

    static String eventKey(String eventId) {
        return "event:" + eventId;
    }
}
