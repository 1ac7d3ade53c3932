package io.fairledger.ingest.schema;

import io.fairledger.core.model.PlainText;

/**
 * The rule for an identifier's text wherever a Kafka record carries one (an event's ids, a registration's cluster,
 * tenant and name): at most {@link ResourceLimits#MAX_ID_LENGTH} characters of plain text ({@link PlainText}: no NUL
 * or other control character, no unpaired surrogate, no layout override). Checked before anything reaches the
 * database, so a record that breaks it is a dead letter, never a batch PostgreSQL refuses.
 */
public final class Identifiers {

    private Identifiers() {
    }

    /** What is wrong with {@code value} (present: null and blank are the caller's concern), or null. */
    public static String problem(String value) {
        if (value.length() > ResourceLimits.MAX_ID_LENGTH) {
            return value.length() + " characters, more than the limit of " + ResourceLimits.MAX_ID_LENGTH;
        }
        String problem = PlainText.problem(value);
        return problem == null ? null : "contains " + problem;
    }
}
