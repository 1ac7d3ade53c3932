package io.fairledger.errors;

import java.time.Duration;
import java.util.Objects;

/** The answer is not ready yet (a ledger still catching up, a dependency down): the caller may retry after a while. */
public final class NotReady extends DomainException {

    /** How long a caller should wait before asking again when nothing better is known. */
    public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(5);

    private final Duration retryAfter;

    public NotReady(String detail) {
        this(detail, DEFAULT_RETRY_AFTER);
    }

    public NotReady(String detail, Duration retryAfter) {
        super(detail);
        this.retryAfter = Objects.requireNonNull(retryAfter);
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
