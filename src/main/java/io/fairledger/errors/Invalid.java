package io.fairledger.errors;

import java.util.List;

/**
 * The content cannot be accepted: a value out of range, an unknown member, an unknown enum value. {@code fields}
 * names each rejected input ({@code body.weight}, {@code path.clusterId}) when it is known.
 */
public final class Invalid extends DomainException {

    /** One rejected input: where it is and what is wrong with it. */
    public record Field(String field, String message) {
    }

    private final List<Field> fields;

    public Invalid(String detail) {
        this(detail, List.of());
    }

    public Invalid(String detail, List<Field> fields) {
        super(detail);
        this.fields = List.copyOf(fields);
    }

    /** A rejection of one input, named in the detail too. */
    public static Invalid field(String field, String message) {
        return new Invalid(field + ": " + message, List.of(new Field(field, message)));
    }

    public List<Field> fields() {
        return fields;
    }
}
