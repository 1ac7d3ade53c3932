package io.fairledger.web;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fairledger.core.model.PlainText;

/**
 * An RFC 9457 problem details body ({@code application/problem+json}). {@code errors} lists each invalid field of a
 * rejected request.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, String instance,
        List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** The texts that may echo a request (a path, a header) are kept printable ({@link PlainText#escaped}). */
    public Problem {
        detail = PlainText.escaped(detail);
        instance = PlainText.escaped(instance);
    }

    /** One rejected input: where it is ({@code body.weight}, {@code path.clusterId}) and what is wrong with it. */
    public record FieldError(String field, String message) {
        public FieldError {
            field = PlainText.escaped(field);
            message = PlainText.escaped(message);
        }
    }
}
