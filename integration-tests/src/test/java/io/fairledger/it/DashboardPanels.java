package io.fairledger.it;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The PromQL of a Grafana dashboard's panels, for {@link DashboardQueriesIT}: every target of every panel, rows
 * included, with the dashboard variables substituted.
 */
final class DashboardPanels {

    /** Grafana's built-in variables, as Grafana would fill them for a 5-minute range scraped every second. */
    static final Map<String, String> BUILT_INS = Map.of("__rate_interval", "1m", "__interval", "15s", "__range",
            "5m");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{(\\w+)}|\\$(\\w+)");

    private DashboardPanels() {
    }

    /** One panel target's query and where it is: dashboard, panel title and target id. */
    record Query(String where, String promql) {
    }

    /**
     * Adds every target of {@code panels} (also those inside rows) to {@code queries}, with {@code values} for the
     * variables; a variable without a value is added to {@code failures}.
     */
    static void collect(JsonNode panels, String dashboard, Map<String, String> values, List<Query> queries,
            List<String> failures) {
        if (panels == null) {
            return;
        }
        for (JsonNode panel : panels) {
            collect(panel.get("panels"), dashboard, values, queries, failures);
            for (JsonNode target : panel.path("targets")) {
                if (target.hasNonNull("expr")) {
                    String where = dashboard + " / " + panel.path("title").asText() + " ["
                            + target.path("refId").asText() + "]";
                    queries.add(new Query(where, substitute(target.get("expr").asText(), values, failures, where)));
                }
            }
        }
    }

    /** {@code text} with each {@code $name} and {@code ${name}} replaced by its value in {@code values}. */
    static String substitute(String text, Map<String, String> values, List<String> failures, String where) {
        Matcher m = VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String value = values.get(name);
            if (value == null) {
                failures.add(where + ": unknown variable $" + name + " in " + text);
                value = m.group();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
