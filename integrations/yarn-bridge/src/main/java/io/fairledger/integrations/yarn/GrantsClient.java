package io.fairledger.integrations.yarn;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fairledger.integrations.common.BearerToken;
import io.fairledger.integrations.common.BearerTokens;
import io.fairledger.integrations.common.GrantsAge;
import io.fairledger.integrations.common.GrantsUri;
import io.fairledger.integrations.common.MiniJson;

/**
 * Polls {@code GET /api/v1/clusters/{cluster}/grants} every grant interval with {@code If-None-Match}, and keeps the
 * latest grants: per parent queue, each child's rank in the order to serve and its targets. Requests carry a bearer
 * token ({@link BearerTokens}: OAuth 2.0 client credentials, renewed before they expire and once after a 401). Grants
 * older than their validity ({@link GrantsAge}: the server's interval plus one poll interval since the last answer that
 * confirmed them) are not handed out, and {@link FairledgerGrantsPolicy} falls back to YARN's fair share policy.
 * <p>
 * Scheduling policies are created by the Fair Scheduler without configuration, so one client per ResourceManager is
 * {@link #install installed} by {@link FairledgerFairScheduler} when {@code fairledger.grants.url} is set.
 */
public final class GrantsClient implements AutoCloseable {

    public static final String URL = "fairledger.grants.url";
    public static final String POLL_MS = "fairledger.grants.poll-ms";
    /** The prefix of the credential settings ({@code fairledger.grants.client-id}, ...), see {@link BearerTokens}. */
    public static final String CREDENTIALS_PREFIX = "fairledger.grants.";
    /** The static token setting of earlier versions, refused: a token in yarn-site.xml expires and is readable. */
    static final String REMOVED_TOKEN = "fairledger.grants.token";

    private static final Logger LOG = LoggerFactory.getLogger(GrantsClient.class);
    private static volatile GrantsClient installed;

    /** A child's grant: its place in the order to serve (0 first), its targets and its granted dominant share. */
    public record Target(int rank, double vcores, double memoryMb, double gpus, double share) {
    }

    /** The grants document's levels, and the interval the server says they hold for. */
    record Snapshot(Map<String, Map<String, Target>> levels, long intervalMillis) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String cluster;
    private final URI uri;
    private final BearerToken token;
    private final long pollMillis;
    private final GrantsAge age;
    private final AtomicLong unauthorized = new AtomicLong();
    private final ScheduledExecutorService poller;
    private volatile Snapshot snapshot;
    private volatile String etag;
    private volatile boolean failing;

    /** @param token the credentials, or null for none (standalone mode on loopback) */
    public GrantsClient(String baseUrl, String cluster, BearerToken token, long pollMillis) {
        this.cluster = cluster;
        this.uri = GrantsUri.of(baseUrl, cluster);
        this.token = token;
        this.pollMillis = pollMillis;
        this.age = new GrantsAge(pollMillis);
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fairledger-grants-poller");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::poll, 0, pollMillis, TimeUnit.MILLISECONDS);
    }

    /** Creates and installs the client of this ResourceManager when the configuration names a grants URL. */
    static void installFrom(Configuration conf, String cluster) {
        String url = conf.getTrimmed(URL);
        if (url == null || url.isEmpty()) {
            return;
        }
        BearerToken credentials = credentials(conf, System.getenv());
        install(new GrantsClient(url, cluster, credentials, conf.getLong(POLL_MS, 10_000)));
        GrantsMetrics.register();
        LOG.info("fairledger grants: polling {} every {} ms, {}", url, conf.getLong(POLL_MS, 10_000),
                credentials == null ? "without a token" : "with " + credentials.getClass().getSimpleName());
    }

    /** The credentials yarn-site.xml describes (null for none); refuses the removed static token setting. */
    static BearerToken credentials(Configuration conf, Map<String, String> env) {
        if (conf.get(REMOVED_TOKEN) != null) {
            throw new IllegalArgumentException(REMOVED_TOKEN + " is no longer read (a static token expires, and "
                    + "yarn-site.xml is no place for it): set " + CREDENTIALS_PREFIX + "client-id with "
                    + CREDENTIALS_PREFIX + "issuer and a secret file, or " + CREDENTIALS_PREFIX
                    + "token-file (docs/integrations.md)");
        }
        return BearerTokens.from(CREDENTIALS_PREFIX, name -> conf.getTrimmed(CREDENTIALS_PREFIX + name), env);
    }

    public static void install(GrantsClient client) {
        GrantsClient old = installed;
        installed = client;
        if (old != null && old != client) {
            old.close();
        }
    }

    /** The installed client, or null. */
    public static GrantsClient installed() {
        return installed;
    }

    /**
     * The grants of a parent queue's children by queue name, or null when there are none: none received, or older
     * than their validity.
     */
    public Map<String, Target> level(String parent) {
        Snapshot s = snapshot;
        if (s == null || age.stale()) {
            return null;
        }
        return s.levels().get(parent);
    }

    /** How old the grants are, and how long they are valid. */
    public GrantsAge age() {
        return age;
    }

    /** The credentials the requests carry, or null. */
    public BearerToken credentials() {
        return token;
    }

    public String cluster() {
        return cluster;
    }

    /** Polls that ended in a 401, after the retry with a new token. */
    public long unauthorized() {
        return unauthorized.get();
    }

    void poll() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                    .header("Accept", "application/json");
            if (etag != null) {
                request.header("If-None-Match", etag);
            }
            HttpResponse<String> response = BearerTokens.send(http, request, token);
            if (response.statusCode() == 304 && snapshot != null) {
                age.confirmed(snapshot.intervalMillis());
            } else if (response.statusCode() == 200) {
                Snapshot s = parse(response.body(), pollMillis);
                snapshot = s;
                etag = response.headers().firstValue("ETag").orElse(null);
                age.confirmed(s.intervalMillis());
            } else {
                if (response.statusCode() == 401) {
                    unauthorized.incrementAndGet();
                }
                throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
            }
            if (failing) {
                LOG.info("fairledger grants: {} answers again", uri);
                failing = false;
            }
        } catch (IOException | RuntimeException e) {
            // the grants received stay in force until their validity ends (level)
            etag = null;
            if (!failing) {
                LOG.warn("fairledger grants: cannot get {}: {}", uri, e.toString());
                failing = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The grants document (docs/api.md) as levels of targets, with the interval it says they hold for (the poll
     * interval when a server leaves it out).
     */
    @SuppressWarnings("unchecked")
    static Snapshot parse(String body, long pollMillis) {
        Map<String, Object> doc = (Map<String, Object>) MiniJson.parse(body);
        Map<String, Map<String, Target>> levels = new HashMap<>();
        for (Object l : (List<Object>) doc.get("levels")) {
            Map<String, Object> level = (Map<String, Object>) l;
            Map<String, Target> children = new HashMap<>();
            int rank = 0;
            for (Object g : (List<Object>) level.get("grants")) {
                Map<String, Object> grant = (Map<String, Object>) g;
                children.put((String) grant.get("tenant"), new Target(rank++, number(grant.get("vcores")),
                        number(grant.get("memoryMb")), number(grant.get("gpus")), number(grant.get("share"))));
            }
            levels.put((String) level.get("parent"), Map.copyOf(children));
        }
        long interval = doc.get("intervalSeconds") instanceof Double d && d > 0 ? Math.round(d * 1000) : pollMillis;
        return new Snapshot(Map.copyOf(levels), interval);
    }

    private static double number(Object o) {
        return o instanceof Double d ? d : 0;
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
