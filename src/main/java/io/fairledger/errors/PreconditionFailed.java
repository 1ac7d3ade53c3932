package io.fairledger.errors;

/**
 * A change made on a stale copy: the caller named the version it read ({@code If-Match}), and someone has changed the
 * resource since. The message names the current version, to read again and decide.
 */
public final class PreconditionFailed extends DomainException {

    public PreconditionFailed(String detail) {
        super(detail);
    }
}
