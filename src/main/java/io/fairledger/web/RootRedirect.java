package io.fairledger.web;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.MIMEHeader;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /}, the server's address opened as it is: a browser (one that accepts {@code text/html}) is sent to the
 * portal (docs/portal.md), any other client to the OpenAPI document (docs/api.md), each with 303 See Other. A Vert.x
 * route, so it is no operation of the API's OpenAPI document; it needs no token, as neither target does to be found
 * (the portal asks for a sign-in itself).
 */
@ApplicationScoped
public class RootRedirect {

    /** Where a browser is sent. */
    static final String PORTAL = "/portal";
    /** Where any other client is sent: Quarkus' OpenAPI document, on the API port (docs/configuration.md). */
    static final String OPENAPI = "/q/openapi";

    void register(@Observes Router router) {
        router.get("/").handler(RootRedirect::redirect);
    }

    private static void redirect(RoutingContext ctx) {
        ctx.response().setStatusCode(303).putHeader(HttpHeaders.LOCATION, acceptsHtml(ctx) ? PORTAL : OPENAPI)
                .putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT).end();
    }

    /** Whether the request's {@code Accept} names {@code text/html} (not refused with {@code q=0}). */
    private static boolean acceptsHtml(RoutingContext ctx) {
        for (MIMEHeader accepted : ctx.parsedHeaders().accept()) {
            if ("text".equalsIgnoreCase(accepted.component()) && "html".equalsIgnoreCase(accepted.subComponent())
                    && accepted.weight() > 0) {
                return true;
            }
        }
        return false;
    }
}
