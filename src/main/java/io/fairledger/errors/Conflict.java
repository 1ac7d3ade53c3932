package io.fairledger.errors;

/** The request is well-formed but conflicts with the current state (already registered, already finished...). */
public final class Conflict extends DomainException {

    public Conflict(String detail) {
        super(detail);
    }
}
