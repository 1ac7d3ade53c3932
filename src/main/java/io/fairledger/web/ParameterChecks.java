package io.fairledger.web;

import java.util.List;
import java.util.Map;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import io.fairledger.core.model.PlainText;

/**
 * Rejects a query parameter that is not plain text ({@link PlainText}: U+0000, which PostgreSQL cannot store, another
 * control character, an unpaired surrogate) before any resource sees it: no identifier may hold one. (A path containing it is refused earlier, by {@link RequestGuards}.)
 */
public final class ParameterChecks {

    @ServerRequestFilter(preMatching = true)
    public Response rejectNul(ContainerRequestContext request) {
        UriInfo uri = request.getUriInfo();
        for (Map.Entry<String, List<String>> parameter : uri.getQueryParameters().entrySet()) {
            for (String value : parameter.getValue()) {
                String problem = PlainText.problem(value);
                if (problem != null) {
                    return rejected("query." + parameter.getKey(), parameter.getKey() + " contains " + problem, uri);
                }
            }
        }
        return null;
    }

    private static Response rejected(String field, String message, UriInfo uri) {
        return Response.status(422).type(Problem.MEDIA_TYPE)
                .entity(new Problem("about:blank", "Unprocessable Content", 422, field + ": " + message,
                        uri.getPath(), List.of(new Problem.FieldError(field, message))))
                .build();
    }
}
