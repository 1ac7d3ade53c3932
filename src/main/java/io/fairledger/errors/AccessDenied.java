package io.fairledger.errors;

/** The caller is known but may not see or do this (e.g. another tenant's books). */
public final class AccessDenied extends DomainException {

    public AccessDenied(String detail) {
        super(detail);
    }
}
