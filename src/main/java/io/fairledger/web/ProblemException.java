package io.fairledger.web;

import java.util.List;

import io.fairledger.errors.AccessDenied;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.DomainException;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;
import io.fairledger.errors.NotReady;
import io.fairledger.errors.PreconditionFailed;

/**
 * A failure as HTTP sees it: status, RFC 9457 title, detail, rejected fields and, for 503, how long to wait. Built
 * here only: {@link #of(DomainException)} is the one table from domain errors to statuses, used by the REST mappers
 * and the grants route alike.
 */
public final class ProblemException extends RuntimeException {

    private final int status;
    private final String title;
    private final List<Problem.FieldError> errors;
    private final long retryAfterSeconds;

    ProblemException(int status, String title, String detail) {
        this(status, title, detail, List.of(), 0);
    }

    private ProblemException(int status, String title, String detail, List<Problem.FieldError> errors,
            long retryAfterSeconds) {
        super(detail);
        this.status = status;
        this.title = title;
        this.errors = errors;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    /** The one table from domain errors to HTTP. */
    public static ProblemException of(DomainException e) {
        if (e instanceof NotFound) {
            return new ProblemException(404, "Not Found", e.getMessage());
        }
        if (e instanceof Conflict) {
            return new ProblemException(409, "Conflict", e.getMessage());
        }
        if (e instanceof PreconditionFailed) {
            return new ProblemException(412, "Precondition Failed", e.getMessage());
        }
        if (e instanceof AccessDenied) {
            return new ProblemException(403, "Forbidden", e.getMessage());
        }
        if (e instanceof NotReady notReady) {
            return new ProblemException(503, "Service Unavailable", e.getMessage(), List.of(),
                    Math.max(1, notReady.retryAfter().toSeconds()));
        }
        Invalid invalid = (Invalid) e;
        return new ProblemException(422, "Unprocessable Content", e.getMessage(), invalid.fields().stream()
                .map(f -> new Problem.FieldError(f.field(), f.message())).toList(), 0);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** Seconds for a {@code Retry-After} header, or 0 for none. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The problem+json body of this failure, for the request at {@code instance}. */
    public Problem body(String instance) {
        return new Problem("about:blank", title, status, getMessage(), instance, errors);
    }

    /** 400 for one input that cannot be read as its type: {@code query.limit}, {@code body.weight}. */
    public static ProblemException unreadable(String field, String message) {
        return new ProblemException(400, "Bad Request", field + ": " + message,
                List.of(new Problem.FieldError(field, message)), 0);
    }

    /** 401: no valid token; the same detail for every reason a token is refused. */
    public static ProblemException unauthorized() {
        return new ProblemException(401, "Unauthorized", "A valid bearer token is required.");
    }

    /** 403 for a caller whose roles do not include the operation's. */
    public static ProblemException roleMissing() {
        return new ProblemException(403, "Forbidden", "Your roles do not allow this request.");
    }
}
