package io.fairledger.web;

import java.util.List;
import java.util.Locale;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Checks run on every request before routing, answering with problem+json where Quarkus would answer with an empty
 * body or fail later: a body announced larger than {@code quarkus.http.limits.max-body-size} is a 413 (a chunked body
 * without a length that grows past the limit still gets Quarkus' own empty 413), and a path containing U+0000
 * ({@code %00}), which no identifier may hold and PostgreSQL cannot store, is a 422.
 */
@ApplicationScoped
public class RequestGuards {

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::check);
    }

    private void check(RoutingContext ctx) {
        String uri = ctx.request().uri();
        String rawPath = uri.indexOf('?') < 0 ? uri : uri.substring(0, uri.indexOf('?'));
        if (rawPath.toLowerCase(Locale.ROOT).contains("%00")) {
            reject(ctx, 422, "Unprocessable Content", "path", "the path must not contain U+0000 (%00)");
            return;
        }
        String length = ctx.request().getHeader("Content-Length");
        if (length != null && exceedsLimit(length)) {
            reject(ctx, 413, "Content Too Large", "body",
                    "the body is larger than the limit of " + maxBodySize.asLongValue() + " bytes (4M by default)");
            return;
        }
        ctx.next();
    }

    private boolean exceedsLimit(String length) {
        try {
            return Long.parseLong(length.strip()) > maxBodySize.asLongValue();
        } catch (NumberFormatException e) {
            return false; // Vert.x rejects a malformed Content-Length itself
        }
    }

    private void reject(RoutingContext ctx, int status, String title, String field, String message) {
        Problem body = new Problem("about:blank", title, status, field + ": " + message, ctx.request().path(),
                List.of(new Problem.FieldError(field, message)));
        try {
            ctx.response().setStatusCode(status).putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .putHeader("Connection", "close").end(Buffer.buffer(json.writeValueAsBytes(body)));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a problem body is always serialisable", impossible);
        }
    }
}
