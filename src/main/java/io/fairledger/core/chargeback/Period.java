package io.fairledger.core.chargeback;

/**
 * An accounting period {@code [start, end)} in epoch millis.
 *
 * @param id
 *            a stable name, e.g. {@code 2026-11}
 */
public record Period(String id, long start, long end) {

    public Period {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("period id must not be blank");
        }
        if (end <= start) {
            throw new IllegalArgumentException("period " + id + " must end after it starts: [" + start + ", " + end
                    + ")");
        }
    }

    /** Length in milliseconds. */
    public long lengthMs() {
        return end - start;
    }
}
