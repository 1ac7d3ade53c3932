package io.fairledger.standalone;

/**
 * Standalone mode cannot start, for a reason the operator can act on; {@code fairledger serve} prints the message
 * (never a stack trace) and exits with code 1.
 */
public final class StandaloneStartupException extends RuntimeException {

    public StandaloneStartupException(String message) {
        super(message);
    }

    public StandaloneStartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
