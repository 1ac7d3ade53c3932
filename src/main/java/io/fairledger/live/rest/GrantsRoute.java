package io.fairledger.live.rest;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.security.AuthenticationException;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.vertx.http.runtime.security.QuarkusHttpUser;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import io.fairledger.errors.DomainException;
import io.fairledger.live.LiveLedgers;
import io.fairledger.observability.MetricNames;
import io.fairledger.security.Roles;
import io.fairledger.web.Problem;
import io.fairledger.web.ProblemException;
import io.fairledger.web.ProblemMappers;

/**
 * {@code GET /api/v1/clusters/{clusterId}/grants}, the request resource managers poll: a Vert.x route on the I/O
 * thread rather than a Quarkus REST method. The answer is bytes already encoded ({@link GrantsCache}), so the request
 * costs only its handling, and the REST layer's handling plus its security check took about 1.5 times the CPU of the
 * whole route with the same check (docs/benchmarks.md, HTTP, "a Vert.x route for the grants"). The same authentication
 * (any mechanism of the server: Keycloak tokens, or standalone's loopback admin), roles ({@code resource-manager},
 * {@code admin}) and RFC 9457 problems as every other operation; documented in {@code META-INF/openapi.yaml}. Each
 * answer with the grants (200, or 304 unchanged) sets the cluster's gauge {@value MetricNames#GRANTS_LAST_FETCH_TIME},
 * which the alert {@code FairledgerGrantsNotFetched} watches; a cluster gets it on its first fetch.
 */
@ApplicationScoped
public class GrantsRoute {

    private static final String PATH = "/api/v1/clusters/:clusterId/grants";

    @Inject
    LiveLedgers ledgers;

    @Inject
    GrantsCache grants;

    @Inject
    ObjectMapper json;

    @Inject
    MeterRegistry meters;

    /** The last fetch of each cluster's grants, epoch millis. */
    private final Map<String, AtomicLong> lastFetch = new ConcurrentHashMap<>();

    void register(@Observes Router router) {
        router.get(PATH).handler(this::handle);
    }

    private void handle(RoutingContext ctx) {
        QuarkusHttpUser.getSecurityIdentity(ctx, null).subscribe().with(identity -> answer(ctx, identity),
                failure -> problem(ctx,
                        failure instanceof AuthenticationException || failure instanceof SecurityException
                                ? ProblemException.unauthorized()
                                : ProblemMappers.incident(failure, ctx.request().path())));
    }

    private void answer(RoutingContext ctx, SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            problem(ctx, ProblemException.unauthorized());
            return;
        }
        if (!identity.hasRole(Roles.RESOURCE_MANAGER) && !identity.hasRole(Roles.ADMIN)) {
            problem(ctx, ProblemException.roleMissing());
            return;
        }
        GrantsCache.Encoded encoded;
        try {
            encoded = grants.of(ledgers.view(ctx.pathParam("clusterId")));
        } catch (DomainException e) {
            problem(ctx, ProblemException.of(e));
            return;
        } catch (RuntimeException e) {
            problem(ctx, ProblemMappers.incident(e, ctx.request().path()));
            return;
        }
        fetched(ctx.pathParam("clusterId"));
        HttpServerResponse response = ctx.response().putHeader(HttpHeaders.ETAG, encoded.etag());
        if (encoded.etag().equals(ctx.request().getHeader(HttpHeaders.IF_NONE_MATCH))) {
            response.setStatusCode(304).end();
            return;
        }
        response.putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        String accepted = ctx.request().getHeader(HttpHeaders.ACCEPT_ENCODING);
        if (accepted != null && accepted.contains("gzip")) {
            response.putHeader(HttpHeaders.CONTENT_ENCODING, "gzip").end(Buffer.buffer(encoded.gzip()));
        } else {
            response.end(Buffer.buffer(encoded.json()));
        }
    }

    /** Sets the cluster's last-fetch gauge to now; only clusters with a ledger get here, so the labels are bounded. */
    private void fetched(String clusterId) {
        long now = System.currentTimeMillis();
        lastFetch.computeIfAbsent(clusterId, id -> {
            AtomicLong at = new AtomicLong(now);
            Gauge.builder(MetricNames.GRANTS_LAST_FETCH_TIME, at, v -> v.get() / 1000.0)
                    .description("when a resource manager last fetched the cluster's grants from this replica")
                    .tag(MetricNames.CLUSTER, id).register(meters);
            return at;
        }).set(now);
    }

    private void problem(RoutingContext ctx, ProblemException e) {
        Problem body = e.body(ctx.request().path());
        HttpServerResponse response = ctx.response().setStatusCode(e.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE);
        if (e.status() == 401) {
            response.putHeader("WWW-Authenticate", "Bearer");
        }
        if (e.retryAfterSeconds() > 0) {
            response.putHeader("Retry-After", Long.toString(e.retryAfterSeconds()));
        }
        try {
            response.end(Buffer.buffer(json.writeValueAsBytes(body)));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a problem body is always serialisable", impossible);
        }
    }
}
