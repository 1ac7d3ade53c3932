package io.fairledger.integrations.mesos;

import java.io.IOException;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fairledger.integrations.common.BearerToken;
import io.fairledger.integrations.common.BearerTokens;
import io.fairledger.integrations.common.GrantsAge;
import io.fairledger.integrations.common.GrantsUri;

/**
 * Applies fairledger's grants to Mesos as role weights: every interval it polls
 * {@code GET /api/v1/clusters/{cluster}/grants} with {@code If-None-Match}, and when the grants changed it sends the
 * master's operator API an {@code UPDATE_WEIGHTS} with one weight per granted tenant, for the role the bridge books
 * as that tenant ({@link #role}). The weight is the tenant's granted
 * dominant share: Mesos divides a parent's resources among its roles in proportion to their weights, so the ratios of
 * the grants are what Mesos's allocator follows. Mesos requires weights above 0: a share of 0 is sent as
 * {@link #MIN_WEIGHT}. Weights stay as they are in Mesos while fairledger cannot be reached (one warning, one info
 * line when back); a non-leading master's 307 is followed, a failing master makes it try the next one.
 * <p>
 * Requests carry a bearer token ({@link BearerTokens}: OAuth 2.0 client credentials, renewed before they expire and
 * once after a 401). The weights in force are as old as the grants they were last set or confirmed from
 * ({@link GrantsAge}); when that is longer than the grants' validity it is logged, at most once a minute, and
 * {@link MetricsEndpoint} serves it.
 */
public final class GrantWeights implements AutoCloseable {

    /** The weight sent for a share of 0 (Mesos rejects weights that are not positive). */
    static final double MIN_WEIGHT = 0.001;

    private static final Logger LOG = LoggerFactory.getLogger(GrantWeights.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_REDIRECTS = 5;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI grants;
    private final BearerToken token;
    private final GrantsAge age;
    private final List<URI> masters;
    private final Duration interval;
    private final ScheduledExecutorService poller;
    private final AtomicLong updates = new AtomicLong();
    private String etag;
    private long intervalMillis;
    private Map<String, Double> applied = Map.of();
    private int master;
    private boolean failing;

    /** @param token the credentials, or null for none (standalone mode on loopback) */
    public GrantWeights(String fairledgerUrl, String cluster, BearerToken token, List<URI> masters,
            Duration interval) {
        this.grants = GrantsUri.of(fairledgerUrl, cluster);
        this.token = token;
        this.masters = List.copyOf(masters);
        this.interval = interval;
        this.intervalMillis = interval.toMillis();
        this.age = new GrantsAge(interval.toMillis());
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fairledger-mesos-weights");
            t.setDaemon(true);
            return t;
        });
    }

    /** Polls every interval, the first time now. */
    public GrantWeights start() {
        poller.scheduleWithFixedDelay(this::pollOnce, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** {@code UPDATE_WEIGHTS} calls a master accepted so far. */
    public long updates() {
        return updates.get();
    }

    /** How old the grants the weights in force follow are. */
    public GrantsAge age() {
        return age;
    }

    synchronized void pollOnce() {
        try {
            HttpRequest.Builder request = HttpRequest.newBuilder(grants).timeout(Duration.ofSeconds(10)).GET();
            if (etag != null) {
                request.header("If-None-Match", etag);
            }
            HttpResponse<String> response = BearerTokens.send(http, request, token);
            if (response.statusCode() == 200) {
                JsonNode answer = JSON.readTree(response.body());
                Map<String, Double> weights = weights(answer);
                if (!weights.isEmpty() && !weights.equals(applied)) {
                    update(weights);
                    applied = weights;
                }
                etag = response.headers().firstValue("ETag").orElse(null);
                double seconds = answer.path("intervalSeconds").asDouble();
                intervalMillis = seconds > 0 ? Math.round(seconds * 1000) : interval.toMillis();
                age.confirmed(intervalMillis);
            } else if (response.statusCode() == 304) {
                age.confirmed(intervalMillis);
            } else {
                throw new IOException("fairledger answered " + grants + " with HTTP " + response.statusCode());
            }
            if (failing) {
                LOG.info("Mesos role weights follow fairledger's grants again");
                failing = false;
            }
        } catch (IOException | RuntimeException e) {
            if (!failing) {
                LOG.warn("Mesos role weights not updated, they stay as they are: {}", e.toString());
                failing = true;
            }
            etag = null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (age.reportDue()) {
            LOG.warn("Mesos role weights follow fairledger grants {} s old, valid for {} s", age.ageMillis() / 1000,
                    age.validityMillis() / 1000);
        }
    }

    /** Each granted tenant of every level, as a role and its weight. */
    static Map<String, Double> weights(JsonNode grants) {
        Map<String, Double> weights = new TreeMap<>();
        for (JsonNode level : grants.path("levels")) {
            for (JsonNode grant : level.path("grants")) {
                String role = role(grant.path("tenant").asText());
                if (!role.isEmpty()) {
                    weights.put(role, Math.max(MIN_WEIGHT, grant.path("share").asDouble()));
                }
            }
        }
        return weights;
    }

    /**
     * The Mesos role of a tenant path as the grants write it ({@code root.analytics.etl}): its segments below the
     * root, joined by {@code /} ({@code analytics/etl}), the role the bridge booked as that tenant. Segments contain
     * neither {@code .} nor {@code /}, so nothing is lost.
     */
    static String role(String tenant) {
        if (tenant.contains("/")) {
            return tenant.startsWith("/") ? tenant.substring(1) : tenant;
        }
        String path = tenant.equals("root") ? "" : tenant.startsWith("root.") ? tenant.substring(5) : tenant;
        return path.replace('.', '/');
    }

    /** The operator API call: {@code {"type":"UPDATE_WEIGHTS","update_weights":{"weight_infos":[...]}}}. */
    static String updateWeights(Map<String, Double> weights) {
        ObjectNode call = JSON.createObjectNode().put("type", "UPDATE_WEIGHTS");
        ArrayNode infos = call.putObject("update_weights").putArray("weight_infos");
        weights.forEach((role, weight) -> infos.addObject().put("role", role).put("weight", weight));
        return call.toString();
    }

    private void update(Map<String, Double> weights) throws IOException {
        byte[] body = updateWeights(weights).getBytes(StandardCharsets.UTF_8);
        IOException last = null;
        for (int tried = 0; tried < masters.size(); tried++) {
            URI target = masters.get(master).resolve("/api/v1");
            try {
                post(target, body);
                updates.incrementAndGet();
                LOG.info("Mesos role weights set from fairledger's grants: {}", weights);
                return;
            } catch (IOException e) {
                last = e;
                master = (master + 1) % masters.size();
            }
        }
        throw last;
    }

    private static void post(URI target, byte[] body) throws IOException {
        for (int redirects = 0;; redirects++) {
            HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
            try {
                connection.setInstanceFollowRedirects(false);
                connection.setConnectTimeout(10_000);
                connection.setReadTimeout(30_000);
                connection.setRequestMethod("POST");
                connection.setDoOutput(true);
                connection.setRequestProperty("Content-Type", "application/json");
                try (OutputStream out = connection.getOutputStream()) {
                    out.write(body);
                }
                int status = connection.getResponseCode();
                if (status == 307 || status == 302 || status == 301) {
                    String location = connection.getHeaderField("Location");
                    if (location == null || redirects >= MAX_REDIRECTS) {
                        throw new IOException("master " + target + " redirected UPDATE_WEIGHTS "
                                + (location == null ? "without a Location" : "too often"));
                    }
                    URI next = target.resolve(location);
                    target = next.getPath() == null || next.getPath().isEmpty() ? next.resolve("/api/v1") : next;
                    continue;
                }
                if (status != 200 && status != 202) {
                    throw new IOException("master " + target + " answered UPDATE_WEIGHTS with HTTP " + status);
                }
                return;
            } finally {
                connection.disconnect();
            }
        }
    }

    @Override
    public void close() {
        poller.shutdownNow();
    }
}
