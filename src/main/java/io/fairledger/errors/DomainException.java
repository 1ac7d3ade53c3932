package io.fairledger.errors;

/**
 * A failure of a request or an event that its sender can act on, said in the domain's terms. Services, the consumer
 * and the live ledgers throw these; only {@code io.fairledger.web} turns them into HTTP (one table), and the consumer
 * turns them into dead letters. The message says what is wrong in the caller's terms and never leaks internals.
 */
public abstract sealed class DomainException extends RuntimeException
        permits NotFound, Conflict, Invalid, NotReady, AccessDenied, PreconditionFailed {

    protected DomainException(String detail) {
        super(detail);
    }
}
