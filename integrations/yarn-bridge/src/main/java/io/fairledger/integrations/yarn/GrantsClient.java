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

import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls {@code GET /api/v1/clusters/{cluster}/grants} every grant interval with {@code If-None-Match}, and keeps the
 * latest grants: per parent queue, each child's rank in the order to serve and its targets. When the server cannot be
 * reached, answers with an error, or its grants are past {@code validUntil} plus one interval, there are none, and
 * {@link FairledgerGrantsPolicy} falls back to YARN's fair share policy.
 * <p>
 * Scheduling policies are created by the Fair Scheduler without configuration, so one client per ResourceManager is
 * {@link #install installed} by {@link FairledgerFairScheduler} when {@code fairledger.grants.url} is set.
 */
public final class GrantsClient implements AutoCloseable {

    public static final String URL = "fairledger.grants.url";
    public static final String POLL_MS = "fairledger.grants.poll-ms";
    public static final String TOKEN = "fairledger.grants.token";

    private static final Logger LOG = LoggerFactory.getLogger(GrantsClient.class);
    private static volatile GrantsClient installed;

    /** A child's grant: its place in the order to serve (0 first) and its targets. */
    public record Target(int rank, double vcores, double memoryMb, double gpus) {
    }

    record Snapshot(Map<String, Map<String, Target>> levels, long validUntilMillis) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI uri;
    private final String token;
    private final long pollMillis;
    private final ScheduledExecutorService poller;
    private volatile Snapshot snapshot;
    private volatile String etag;
    private volatile boolean failing;

    public GrantsClient(String baseUrl, String cluster, String token, long pollMillis) {
        this.uri = URI.create(baseUrl.replaceAll("/+$", "") + "/api/v1/clusters/" + cluster + "/grants");
        this.token = token;
        this.pollMillis = pollMillis;
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
        install(new GrantsClient(url, cluster, conf.getTrimmed(TOKEN), conf.getLong(POLL_MS, 10_000)));
        LOG.info("fairledger grants: polling {} every {} ms", url, conf.getLong(POLL_MS, 10_000));
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

    /** The grants of a parent queue's children by queue name, or null when there are none (or they are stale). */
    public Map<String, Target> level(String parent) {
        Snapshot s = snapshot;
        if (s == null || System.currentTimeMillis() > s.validUntilMillis() + pollMillis) {
            return null;
        }
        return s.levels().get(parent);
    }

    void poll() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10))
                    .header("Accept", "application/json");
            if (etag != null) {
                request.header("If-None-Match", etag);
            }
            if (token != null && !token.isEmpty()) {
                request.header("Authorization", "Bearer " + token);
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 304 && snapshot != null) {
                Snapshot s = snapshot;
                snapshot = new Snapshot(s.levels(), System.currentTimeMillis() + pollMillis);
            } else if (response.statusCode() == 200) {
                snapshot = parse(response.body(), pollMillis);
                etag = response.headers().firstValue("ETag").orElse(null);
            } else {
                throw new IOException("HTTP " + response.statusCode() + ": " + response.body());
            }
            if (failing) {
                LOG.info("fairledger grants: {} answers again", uri);
                failing = false;
            }
        } catch (IOException | RuntimeException e) {
            snapshot = null;
            etag = null;
            if (!failing) {
                LOG.warn("fairledger grants: cannot get {}: {}", uri, e.toString());
                failing = true;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The grants document (docs/api.md) as levels of targets; the grants hold until the next poll is due. */
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
                        number(grant.get("memoryMb")), number(grant.get("gpus"))));
            }
            levels.put((String) level.get("parent"), Map.copyOf(children));
        }
        return new Snapshot(Map.copyOf(levels), System.currentTimeMillis() + pollMillis);
    }

    private static double number(Object o) {
        return o instanceof Double d ? d : 0;
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
