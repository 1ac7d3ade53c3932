package io.fairledger.ingest.schema;

/**
 * The schema registry could not be asked for a writer schema (unreachable, timed out, refused the credentials, or
 * answered with an error that is not "no such id"). Not a verdict on the record: the decoder lets it through instead
 * of rejecting, and the consumer reads the batch again later, so no event is lost while the registry is away.
 */
public final class RegistryUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RegistryUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
