package io.fairledger.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fairledger report --cluster C [--from T] [--to T] [--step P1D] [--aggregate tenant|parent|cluster]}: usage,
 * entitlement, fairness degree and charges over a window, from a running server's
 * {@code GET /api/v1/clusters/{id}/usage} (docs/reports.md), in the manner of Slurm's {@code sreport}; with
 * {@code --focus}, the FOCUS export of the closed periods ({@code GET /api/v1/clusters/{id}/focus}, docs/billing.md).
 */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Usage, entitlement, rho and charges of a cluster over a window, from a running server.")
public final class ReportCommand implements Callable<Integer> {

    /** The table's columns, in order. */
    static final List<String> HEADER = List.of("start", "end", "group", "actual_h", "counted_h", "entitled_h", "rho",
            "charge", "currency");

    @Spec
    CommandSpec spec;

    @Mixin
    ServerClient server;

    @Mixin
    TableOutput output;

    @Option(names = "--cluster", required = true, paramLabel = "ID", description = "The cluster.")
    String cluster;

    @Option(names = "--from", paramLabel = "T", description = "Window start, ISO-8601 instant (default: the registration).")
    String from;

    @Option(names = "--to", paramLabel = "T", description = "Window end, ISO-8601 instant (default: now).")
    String to;

    @Option(names = "--step", paramLabel = "D", description = "Bucket length, an ISO-8601 duration that is a whole number of periods, e.g. P1D (default: the whole window).")
    String step;

    @Option(names = "--aggregate", paramLabel = "BY", defaultValue = "tenant", description = "tenant, parent or cluster (default: ${DEFAULT-VALUE}).")
    String aggregate;

    @Option(names = "--focus", description = "Instead of the usage table, the closed periods within --from/--to as a FOCUS 1.3 dataset (CSV), from GET /api/v1/clusters/{id}/focus.")
    boolean focus;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (focus) {
            Map<String, String> window = new LinkedHashMap<>();
            window.put("from", from);
            window.put("to", to);
            try {
                out.print(server.getText(List.of("api", "v1", "clusters", cluster, "focus"), window, "text/csv"));
            } catch (ServerClient.ServerError e) {
                spec.commandLine().getErr().println("fairledger report: " + e.getMessage());
                return 1;
            }
            return 0;
        }
        Map<String, String> query = new LinkedHashMap<>();
        query.put("from", from);
        query.put("to", to);
        query.put("step", step);
        query.put("aggregate", aggregate);
        JsonNode report;
        try {
            report = server.get(List.of("api", "v1", "clusters", cluster, "usage"), query);
        } catch (ServerClient.ServerError e) {
            spec.commandLine().getErr().println("fairledger report: " + e.getMessage());
            return 1;
        }
        if (output.json()) {
            out.println(report.toPrettyString());
            return 0;
        }
        output.print(out, HEADER, rows(report));
        return 0;
    }

    private static String plain(JsonNode number) {
        return number.decimalValue().toPlainString();
    }

    /** One table row per group per bucket. */
    static List<List<String>> rows(JsonNode report) {
        String currency = report.path("currency").asText();
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode bucket : report.path("buckets")) {
            for (JsonNode row : bucket.path("rows")) {
                rows.add(List.of(bucket.path("start").asText(), bucket.path("end").asText(), row.path("key").asText(),
                        plain(row.path("actual")), plain(row.path("counted")), plain(row.path("entitled")),
                        row.path("rho").isNull()
                                ? ""
                                : String.format(java.util.Locale.ROOT, "%.4f",
                                        row.path("rho").asDouble()),
                        plain(row.path("charge")), currency));
            }
        }
        return rows;
    }
}
