package io.fairledger.web;

import io.fairledger.errors.Invalid;

/**
 * Query parameters read by hand, because JAX-RS answers 404 when a typed {@code @QueryParam} cannot be converted:
 * here a value that is not of the parameter's type is a 400 and one out of range a 422, each naming the parameter.
 */
public final class QueryParameters {

    private QueryParameters() {
    }

    /** {@code raw} as an integer in {@code [min, max]}, or {@code fallback} when absent. */
    public static int integer(String name, String raw, int fallback, int min, int max) {
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        String field = "query." + name;
        int value;
        try {
            value = Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            throw ProblemException.unreadable(field, name + " must be an integer from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw Invalid.field(field, name + " must be an integer from " + min + " to " + max);
        }
        return value;
    }
}
