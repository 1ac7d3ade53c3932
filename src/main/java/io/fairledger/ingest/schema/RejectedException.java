package io.fairledger.ingest.schema;

/** Carries a {@link Rejection} out of the decoding steps to {@link EventDecoder}, which turns it into a result. */
final class RejectedException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Rejection rejection;

    RejectedException(Rejection.Reason reason, String field, String detail) {
        this(new Rejection(reason, field, detail));
    }

    RejectedException(Rejection rejection) {
        super(rejection.detail(), null, false, false);
        this.rejection = rejection;
    }

    Rejection rejection() {
        return rejection;
    }
}
