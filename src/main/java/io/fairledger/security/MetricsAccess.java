package io.fairledger.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;

/**
 * Who may read {@code /q/metrics}, which carries every tenant's charges and balances: with
 * {@code fairledger.metrics.scrape-token} set, whoever sends it as a bearer token ({@code Authorization: Bearer <token>},
 * as Prometheus's {@code authorization} setting does); without one, callers on this machine (loopback) only. Everyone
 * else gets 401 with a problem body. Health ({@code /q/health}) stays open on the same port: a kubelet's probes carry no
 * token. Applied as the first route of the management interface, before the metrics handler; docs/operations.md,
 * "Metrics access".
 */
@ApplicationScoped
public class MetricsAccess {

    /** The path of the metrics on the management interface (its root path /q, Micrometer's /metrics). */
    public static final String PATH = "/q/metrics";
    /** Shorter tokens are refused at start: a scrape token is a shared secret, not a password someone types. */
    static final int MIN_TOKEN_LENGTH = 16;
    private static final Logger LOG = Logger.getLogger(MetricsAccess.class);
    private static final String BEARER = "bearer ";

    @Inject
    FairledgerConfig config;

    @ConfigProperty(name = "quarkus.management.host")
    String managementHost;

    void guard(@Observes ManagementInterface management) {
        String token = checkedToken(config.metrics().scrapeToken());
        if (token == null && !isLoopbackHost(managementHost)) {
            LOG.warnf("%s on %s answers callers on this machine only: set FAIRLEDGER_METRICS_SCRAPE_TOKEN and give "
                    + "Prometheus the same bearer token to scrape it from elsewhere (docs/operations.md)", PATH,
                    managementHost);
        }
        management.router().route(PATH + "*").order(Integer.MIN_VALUE).handler(context -> {
            if (allows(token, context.request().getHeader("Authorization"),
                    LoopbackAdminMechanism.isLoopback(context.request().remoteAddress()))) {
                context.next();
            } else {
                refuse(context, token != null);
            }
        });
    }

    /** The configured token, or null for none; a short one stops the start with the reason. */
    static String checkedToken(Optional<String> configured) {
        String token = configured.map(String::strip).filter(t -> !t.isEmpty()).orElse(null);
        if (token != null && token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalStateException("fairledger.metrics.scrape-token has " + token.length()
                    + " characters, fewer than " + MIN_TOKEN_LENGTH
                    + ": use a random one, e.g. `openssl rand -hex 32`");
        }
        return token;
    }

    /**
     * Whether a request for the metrics is answered: with a {@code token}, when {@code authorization} is
     * {@code Bearer <token>} (the scheme in any case, RFC 9110); without one, when the caller is on {@code loopback}.
     */
    static boolean allows(String token, String authorization, boolean loopback) {
        if (token == null) {
            return loopback;
        }
        if (authorization == null || authorization.length() <= BEARER.length()
                || !authorization.substring(0, BEARER.length()).toLowerCase(Locale.ROOT).equals(BEARER)) {
            return false;
        }
        byte[] sent = authorization.substring(BEARER.length()).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(sent, token.getBytes(StandardCharsets.UTF_8));
    }

    static boolean isLoopbackHost(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static void refuse(RoutingContext context, boolean tokenConfigured) {
        String detail = tokenConfigured
                ? "the metrics carry every tenant's numbers: send the scrape token as Authorization: Bearer <token>"
                : "the metrics carry every tenant's numbers and no scrape token is set: they are served to callers "
                        + "on this machine only (fairledger.metrics.scrape-token)";
        context.response().setStatusCode(401)
                .putHeader("WWW-Authenticate", "Bearer realm=\"fairledger-metrics\"")
                .putHeader("Content-Type", "application/problem+json")
                .end("{\"type\":\"about:blank\",\"title\":\"Unauthorized\",\"status\":401,\"detail\":\"" + detail
                        + "\"}");
    }
}
