package io.fairledger.ingest.schema;

/**
 * The result of decoding one record: either {@link Ok} with a validated event or {@link Rejected} with the reason.
 * The decoder never throws for bad input.
 */
public sealed interface Decoded permits Decoded.Ok, Decoded.Rejected {

    /** A decoded, validated event. */
    static Decoded ok(FairledgerEvent event) {
        return new Ok(event);
    }

    /** A record that was not accepted. */
    static Decoded rejected(Rejection rejection) {
        return new Rejected(rejection);
    }

    /** Whether the record was accepted. */
    boolean isOk();

    /** The record was accepted. */
    record Ok(FairledgerEvent event) implements Decoded {

        @Override
        public boolean isOk() {
            return true;
        }
    }

    /** The record was not accepted. */
    record Rejected(Rejection rejection) implements Decoded {

        @Override
        public boolean isOk() {
            return false;
        }
    }
}
