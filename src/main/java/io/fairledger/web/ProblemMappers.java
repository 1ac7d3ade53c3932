package io.fairledger.web;

import java.util.Comparator;
import java.util.List;

import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.fairledger.errors.DomainException;

/**
 * The one place where failures become HTTP responses: every error is an RFC 9457 problem+json body, and no stack
 * trace or internal message ever reaches the caller (unexpected failures are logged with an id the caller gets).
 */
public final class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        Response.ResponseBuilder response = Response.status(e.status()).type(Problem.MEDIA_TYPE)
                .entity(e.body(uri.getPath()));
        if (e.status() == 401) {
            response.header(HttpHeaders.WWW_AUTHENTICATE, "Bearer");
        }
        if (e.retryAfterSeconds() > 0) {
            response.header(HttpHeaders.RETRY_AFTER, e.retryAfterSeconds());
        }
        return response.build();
    }

    @ServerExceptionMapper
    public Response domain(DomainException e, UriInfo uri) {
        return problem(ProblemException.of(e), uri);
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e, UriInfo uri) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .map(ProblemMappers::fieldError)
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .toList();
        return respond(422, "Unprocessable Content",
                "The request is invalid: " + errors.size() + " field(s) rejected.", uri, errors);
    }

    @ServerExceptionMapper({UnauthorizedException.class, AuthenticationFailedException.class})
    public Response unauthorized(RuntimeException e, UriInfo uri) {
        return problem(ProblemException.unauthorized(), uri);
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return problem(ProblemException.roleMissing(), uri);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        int status = e.getResponse().getStatus();
        if (status == 400 && e.getCause() instanceof JsonProcessingException json) {
            return JsonProblemMappers.of(json, uri);
        }
        if (status >= 500) {
            return unexpected(e, uri);
        }
        String detail = switch (status) {
            case 400 -> "The request could not be read: check its JSON syntax and field types.";
            case 404 -> "No such resource.";
            case 405 -> "This method is not allowed here.";
            case 406 -> "No acceptable representation.";
            case 415 -> "Unsupported media type: send application/json.";
            default -> e.getResponse().getStatusInfo().getReasonPhrase();
        };
        return respond(status, e.getResponse().getStatusInfo().getReasonPhrase(), detail, uri, List.of());
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e, UriInfo uri) {
        if (DatabaseUnavailable.causes(e)) {
            LOG.warnf("PostgreSQL unavailable on %s: %s", uri.getPath(), e);
            return problem(ProblemException.of(DatabaseUnavailable.notReady()), uri);
        }
        return problem(incident(e, uri.getPath()), uri);
    }

    /** A 500 for an unexpected failure: logged with an incident id, the only thing the caller learns. */
    public static ProblemException incident(Throwable e, String path) {
        String incident = java.util.UUID.randomUUID().toString();
        LOG.errorf(e, "Unexpected failure on %s (incident %s)", path, incident);
        return new ProblemException(500, "Internal Server Error",
                "An unexpected error occurred; incident " + incident + ".");
    }

    private static Problem.FieldError fieldError(ConstraintViolation<?> violation) {
        String path = violation.getPropertyPath().toString();
        // "register.body.weight" -> "body.weight": drop the method name Hibernate Validator puts first
        int dot = path.indexOf('.');
        return new Problem.FieldError(dot > 0 ? path.substring(dot + 1) : path, violation.getMessage());
    }

    private static Response respond(int status, String title, String detail, UriInfo uri,
            List<Problem.FieldError> errors) {
        Problem body = new Problem("about:blank", title, status, detail, uri.getPath(), errors);
        return Response.status(status).type(Problem.MEDIA_TYPE).entity(body).build();
    }
}
