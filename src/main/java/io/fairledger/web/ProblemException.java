package io.fairledger.web;

/**
 * A failure the caller can act on, carrying the HTTP status and RFC 9457 title it maps to. The message is the
 * problem's {@code detail}: it must say what is wrong in the caller's terms and never leak internals.
 */
public class ProblemException extends RuntimeException {

    private final int status;
    private final String title;

    protected ProblemException(int status, String title, String detail) {
        super(detail);
        this.status = status;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** The problem+json body of this failure, for the request at {@code instance}. */
    public Problem body(String instance) {
        return new Problem("about:blank", title, status, getMessage(), instance, java.util.List.of());
    }

    /** 401: no valid token; the same detail for every reason a token is refused. */
    public static ProblemException unauthorized() {
        return new ProblemException(401, "Unauthorized", "A valid bearer token is required.");
    }

    /** 403 for a caller whose roles do not include the operation's. */
    public static ProblemException roleMissing() {
        return forbidden("Your roles do not allow this request.");
    }

    /** 403: the caller is known but may not see or do this. */
    public static ProblemException forbidden(String detail) {
        return new ProblemException(403, "Forbidden", detail);
    }

    /** 404: the named thing does not exist. */
    public static ProblemException notFound(String detail) {
        return new ProblemException(404, "Not Found", detail);
    }

    /** 409: the request conflicts with the current state. */
    public static ProblemException conflict(String detail) {
        return new ProblemException(409, "Conflict", detail);
    }

    /** 422: well-formed, but its content cannot be accepted. */
    public static ProblemException unprocessable(String detail) {
        return new ProblemException(422, "Unprocessable Content", detail);
    }

    /** 503: the answer is not ready yet; the caller may retry. */
    public static ProblemException unavailable(String detail) {
        return new ProblemException(503, "Service Unavailable", detail);
    }
}
