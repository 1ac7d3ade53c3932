package io.fairledger.admission;

import io.fairledger.errors.Conflict;
import io.fairledger.errors.DomainException;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;

/**
 * Why the admission state refused a row of its log. The kind says what the sender did wrong, and with it the domain
 * error a caller is answered with ({@link #exception}); the detail says it in the sender's terms. A refused row changes
 * nothing, and replaying it refuses it again the same way.
 *
 * @param kind
 *            what went wrong
 * @param detail
 *            the message for the sender
 */
public record Refusal(Kind kind, String detail) {

    /** What went wrong, and so which domain error it is. */
    public enum Kind {
        /** The job or workflow id was already submitted to the cluster: a conflict. */
        DUPLICATE,
        /** No admission policy yet: the cluster's log must start with a policy row; a conflict. */
        NO_POLICY,
        /** The job is queued or has ended, so it cannot complete: a conflict. */
        NOT_RUNNING,
        /** No such job on the cluster. */
        UNKNOWN_JOB,
        /** The row itself is not acceptable (unreadable, undecodable, rejected by a planner): invalid. */
        INVALID
    }

    static Refusal of(Kind kind, String detail) {
        return new Refusal(kind, detail);
    }

    /** The domain error that answers a caller whose row was refused. */
    public DomainException exception() {
        return switch (kind) {
            case DUPLICATE, NO_POLICY, NOT_RUNNING -> new Conflict(detail);
            case UNKNOWN_JOB -> new NotFound(detail);
            case INVALID -> new Invalid(detail);
        };
    }

    @Override
    public String toString() {
        return kind + ": " + detail;
    }
}
