package io.fairledger.perf.history;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;

/** {@link HistoryScale}'s requests to the server: reads, writes, its metrics and the wait for a settled ledger. */
final class ServerHttp {

    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    /** Longest wait for one answer, a late fact's effect or a restart. */
    static final Duration PATIENCE = Duration.ofMinutes(5);

    /** A line of {@code fairledger_live_tick_seconds}: count or sum, phase, value. */
    private static final Pattern TICK_PHASE = Pattern
            .compile("^fairledger_live_tick_seconds_(count|sum)\\{.*phase=\"([a-z]+)\".*\\} (\\S+)$");

    private ServerHttp() {
    }

    static byte[] get(String url, int status) throws Exception {
        HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != status) {
            throw new IllegalStateException("GET " + url + " answered " + r.statusCode() + ": "
                    + new String(r.body(), StandardCharsets.UTF_8));
        }
        return r.body();
    }

    static void send(String method, String url, String json, int status) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(PATIENCE)
                .header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json))
                .build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != status) {
            throw new IllegalStateException(method + " " + url + " answered " + r.statusCode() + ": " + r.body());
        }
    }

    /** A metric's line of the server's Prometheus page, or "name ?" without it. */
    static String metric(String management, String name) throws Exception {
        return new String(get(management + "/q/metrics", 200), StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith(name)).findFirst().orElse(name + " ?");
    }

    /** The sum of the series {@code name} of {@code /q/metrics} whose labels contain {@code label}; 0 if none. */
    static double sum(String management, String name, String label) throws Exception {
        return new String(get(management + "/q/metrics", 200), StandardCharsets.UTF_8).lines()
                .filter(l -> (l.startsWith(name + " ") || l.startsWith(name + "{")) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * The live ledgers' tick so far per phase ({@code fairledger_live_tick_seconds}): phase to {count, sum of seconds}.
     */
    static Map<String, double[]> tickPhases(String management) throws Exception {
        Map<String, double[]> out = new TreeMap<>();
        new String(get(management + "/q/metrics", 200), StandardCharsets.UTF_8).lines().forEach(l -> {
            Matcher m = TICK_PHASE.matcher(l);
            if (m.matches()) {
                out.computeIfAbsent(m.group(2), k -> new double[2])[m.group(1).equals("count") ? 0 : 1] = Double
                        .parseDouble(m.group(3));
            }
        });
        return out;
    }

    /** What {@link #tickPhases} grew by from {@code before} to {@code after}, one phase after another. */
    static String phasesSince(Map<String, double[]> before, Map<String, double[]> after) {
        StringBuilder out = new StringBuilder();
        after.forEach((phase, now) -> {
            double[] then = before.getOrDefault(phase, new double[2]);
            out.append("%s %.0f, %.3f s; ".formatted(phase, now[0] - then[0], now[1] - then[1]));
        });
        return out.toString();
    }

    /**
     * Waits until the grants are as of {@code lastEvent} and nothing moves any more (ETag and rebuild count unchanged
     * over 5 s, longer than the live ledger's 1 s tick); returns the ETag.
     */
    static String awaitSettled(String grants, String management, Instant lastEvent) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(60).toNanos();
        String previous = "";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(grants)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && !Instant.parse(JSON.readTree(r.body()).path("asOf").asText()).isBefore(
                    lastEvent)) {
                String state = r.headers().firstValue("etag").orElse("") + " "
                        + metric(management, "fairledger_live_rebuilds_total");
                if (state.equals(previous)) {
                    return r.headers().firstValue("etag").orElseThrow();
                }
                previous = state;
                Thread.sleep(5_000);
            } else {
                Thread.sleep(1_000);
            }
        }
        throw new IllegalStateException("the live ledger did not reach " + lastEvent + " within 60 minutes");
    }
}
