package io.fairledger.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import io.fairledger.errors.NotReady;

/**
 * Every 503 answer says when to ask again: a {@code Retry-After} header on the API port and on the management
 * interface (a health check DOWN), whoever wrote the answer. An answer that names its own delay (a live ledger being
 * built, {@link ProblemMappers}) keeps it; the others get {@link NotReady#DEFAULT_RETRY_AFTER}.
 */
@ApplicationScoped
public class RetryAfter {

    private static final String DEFAULT = Long.toString(NotReady.DEFAULT_RETRY_AFTER.toSeconds());

    void api(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(RetryAfter::onUnavailable);
    }

    void management(@Observes ManagementInterface management) {
        management.router().route().order(Integer.MIN_VALUE).handler(RetryAfter::onUnavailable);
    }

    private static void onUnavailable(RoutingContext ctx) {
        HttpServerResponse response = ctx.response();
        ctx.addHeadersEndHandler(v -> {
            if (response.getStatusCode() == 503 && !response.headers().contains(HttpHeaders.RETRY_AFTER)) {
                response.putHeader(HttpHeaders.RETRY_AFTER, DEFAULT);
            }
        });
        ctx.next();
    }
}
