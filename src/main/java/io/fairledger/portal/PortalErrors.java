package io.fairledger.portal;

import java.util.List;

import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

import io.fairledger.errors.DomainException;
import io.fairledger.web.ProblemException;
import io.fairledger.web.ProblemMappers;

/**
 * Failures of the portal as readable HTML pages, never a stack trace: the same table from domain errors to statuses as
 * the API ({@link ProblemException#of}), and the same incident id in the log for an unexpected failure. The portal's
 * resources map their exceptions here (their {@code @ServerExceptionMapper}s apply to them only, so the API keeps its
 * problem+json bodies).
 */
final class PortalErrors {

    private PortalErrors() {
    }

    /** The error page for {@code e} raised while serving {@code path}. */
    static Response page(Throwable e, String path) {
        if (e instanceof DomainException domain) {
            ProblemException problem = ProblemException.of(domain);
            return page(problem.status(), problem.title(), problem.getMessage());
        }
        if (e instanceof ForbiddenException) {
            return page(403, "Forbidden", "Your roles do not allow this page.");
        }
        if (e instanceof UnauthorizedException) {
            return page(401, "Unauthorized", "Sign in to see this page.");
        }
        if (e instanceof ConstraintViolationException invalid) {
            List<String> reasons = invalid.getConstraintViolations().stream().map(v -> v.getMessage()).sorted()
                    .toList();
            return page(400, "Bad Request", "The form was rejected: " + String.join("; ", reasons) + ".");
        }
        if (e instanceof WebApplicationException web && web.getResponse().getStatus() < 500) {
            int status = web.getResponse().getStatus();
            return page(status, web.getResponse().getStatusInfo().getReasonPhrase(),
                    status == 404 ? "There is no such page." : "The request could not be served.");
        }
        ProblemException incident = ProblemMappers.incident(e, path);
        return page(500, "Internal Server Error", incident.getMessage());
    }

    /** An error page with a status, a title and a sentence for the reader. */
    static Response page(int status, String title, String detail) {
        return Response.status(status).type(MediaType.TEXT_HTML_TYPE.withCharset("UTF-8"))
                .entity(PortalTemplates.error(status, title, detail).render()).build();
    }
}
