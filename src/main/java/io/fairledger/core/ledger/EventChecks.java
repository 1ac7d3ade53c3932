package io.fairledger.core.ledger;

import java.util.Optional;

import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.ledger.LedgerEvent.TaskFinished;
import io.fairledger.core.ledger.LedgerEvent.TaskStarted;
import io.fairledger.core.model.ResourceVector;

/**
 * Which events a {@link ClusterLedger} refuses or ignores, decided before anything moves, so that an event is applied
 * entirely or not at all: an event of another cluster or older than the ledger clock is rejected, a second start of a
 * running task id and a finish of a task that is not running are ignored, and a start or demand that would overflow
 * the cluster's totals throws {@link ArithmeticException}. O(1).
 */
final class EventChecks {

    private EventChecks() {
    }

    /**
     * {@code event} as the ledger of a cluster registered at {@code registeredAt} applies it: a task start or finish
     * stated before the registration (a container created before it, docs/domain.md section 3) counts from the
     * registration instant; any other event is left as it is.
     */
    static LedgerEvent fromRegistration(LedgerEvent event, long registeredAt) {
        if (event.at() >= registeredAt) {
            return event;
        }
        if (event instanceof TaskStarted s) {
            return new TaskStarted(s.clusterId(), s.taskId(), s.tenant(), s.applicationId(), s.resources(),
                    registeredAt);
        }
        if (event instanceof TaskFinished f) {
            return new TaskFinished(f.clusterId(), f.taskId(), registeredAt);
        }
        return event;
    }

    /**
     * Why {@code ledger} does not apply {@code event}, or empty when it does.
     *
     * @throws ArithmeticException
     *             when the event would overflow the root's holdings or pending demand
     */
    static Optional<Outcome> refusal(ClusterLedger ledger, LedgerEvent event) {
        if (!event.clusterId().equals(ledger.config().clusterId())) {
            return Optional.of(Outcome.REJECTED_OTHER_CLUSTER);
        }
        if (event.at() < ledger.clock()) {
            return Optional.of(Outcome.REJECTED_LATE);
        }
        TenantNode root = ledger.tree.ordered().get(0);
        if (event instanceof TaskStarted s) {
            if (ledger.tasks.containsKey(s.taskId())) {
                return Optional.of(Outcome.IGNORED_DUPLICATE_START);
            }
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                Math.addExact(root.held[r], s.resources().get(r));
            }
        } else if (event instanceof TaskFinished f) {
            if (!ledger.tasks.containsKey(f.taskId())) {
                return Optional.of(Outcome.IGNORED_UNKNOWN_TASK);
            }
        } else if (event instanceof DemandChanged d) {
            TenantNode n = ledger.holder(d.tenant());
            ResourceVector before = n == null
                    ? ResourceVector.ZERO
                    : n.pendingByApplication.getOrDefault(d.applicationId(), ResourceVector.ZERO);
            for (int r = 0; r < ResourceVector.TYPES; r++) {
                Math.addExact(root.pending[r] - before.get(r), d.pending().get(r));
            }
        }
        return Optional.empty();
    }
}
