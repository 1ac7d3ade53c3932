package io.fairledger.errors;

/** The named thing (a cluster, a tenant, a job) does not exist. */
public final class NotFound extends DomainException {

    public NotFound(String detail) {
        super(detail);
    }
}
