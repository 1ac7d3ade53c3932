package io.fairledger.it;

import static io.restassured.RestAssured.given;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@link DashboardQueriesIT}'s questions to Prometheus's HTTP API at {@code url}: instant queries, label values, and
 * PromQL restricted to one scraped replica. A query Prometheus rejects fails the test with its error.
 */
final class PrometheusQueries {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern LABEL_VALUES = Pattern.compile("^label_values\\((.+),\\s*(\\w+)\\)$");
    private static final Pattern SERIES = Pattern.compile("\\b(fairledger_[a-z_]+)(\\{([^}]*)})?");

    private PrometheusQueries() {
    }

    /** {@code promql} with every fairledger series restricted to the replica scraped at {@code instance}. */
    static String onlyFrom(String promql, String instance) {
        Matcher m = SERIES.matcher(promql);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String matchers = m.group(3) == null || m.group(3).isBlank() ? "" : "," + m.group(3);
            m.appendReplacement(out,
                    Matcher.quoteReplacement(m.group(1) + "{instance=\"" + instance + "\"" + matchers + "}"));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** An instant query's result at {@code time}: each series' labels (as text) and value. */
    static Map<String, Double> vector(String url, String promql, String time) {
        Map<String, Double> series = new TreeMap<>();
        for (JsonNode s : get(url, "/api/v1/query", Map.of("query", promql, "time", time)).at("/data/result")) {
            series.put(s.get("metric").toString(), s.at("/value/1").asDouble());
        }
        return series;
    }

    /** The values of {@code label_values(selector, label)} through /api/v1/label/.../values. */
    static List<String> labelValues(String url, String query) {
        Matcher m = LABEL_VALUES.matcher(query.strip());
        if (!m.matches()) {
            throw new IllegalArgumentException("dashboard variable query is not label_values(selector, label): "
                    + query);
        }
        JsonNode body = get(url, "/api/v1/label/" + m.group(2) + "/values", Map.of("match[]", m.group(1)));
        List<String> values = new ArrayList<>();
        body.get("data").forEach(v -> values.add(v.asText()));
        return values;
    }

    /** The result vector of an instant query. */
    static JsonNode query(String url, String promql) {
        return get(url, "/api/v1/query", Map.of("query", promql)).at("/data/result");
    }

    static double scalar(String url, String promql) {
        JsonNode result = query(url, promql);
        return result.isEmpty() ? 0 : result.get(0).at("/value/1").asDouble();
    }

    private static JsonNode get(String url, String path, Map<String, String> params) {
        String body = given().baseUri(url).queryParams(new LinkedHashMap<>(params)).get(path).then().extract()
                .asString();
        try {
            JsonNode json = JSON.readTree(body);
            if (!"success".equals(json.path("status").asText())) {
                throw new AssertionError("Prometheus rejected " + params + ": " + body);
            }
            return json;
        } catch (IOException e) {
            throw new AssertionError("Prometheus answered " + path + " " + params + " with " + body, e);
        }
    }
}
