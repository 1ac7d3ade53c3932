package io.fairledger.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fairledger shares --cluster C}: every tenant now, in the manner of Slurm's {@code sshare}, from
 * {@code GET /api/v1/clusters/{id}/shares}: its weight (sshare's raw shares), normalised share, usage A of the open
 * period in capacity-hours, fairness degree rho, lending balance (lent - owed, capacity-hours) and grant for the next
 * interval; one row per tenant, inner ones too, in path order.
 */
@Command(name = "shares", mixinStandardHelpOptions = true, description = "Every tenant's weight, share, usage, rho, balance and grant now, from a running server.")
public final class SharesCommand implements Callable<Integer> {

    /** The table's columns, in order. */
    static final List<String> HEADER = List.of("tenant", "weight", "norm_share", "usage_h", "rho", "balance_h",
            "grant_vcores", "grant_memory_mb", "grant_gpus");

    @Spec
    CommandSpec spec;

    @Mixin
    ServerClient server;

    @Mixin
    TableOutput output;

    @Option(names = "--cluster", required = true, paramLabel = "ID", description = "The cluster.")
    String cluster;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        JsonNode shares;
        try {
            shares = server.get(List.of("api", "v1", "clusters", cluster, "shares"), Map.of());
        } catch (ServerClient.ServerError e) {
            spec.commandLine().getErr().println("fairledger shares: " + e.getMessage());
            return 1;
        }
        if (output.json()) {
            out.println(shares.toPrettyString());
            return 0;
        }
        output.print(out, HEADER, rows(shares));
        return 0;
    }

    /** One table row per tenant; a number the server does not give (no rho, the root's grant) is empty. */
    static List<List<String>> rows(JsonNode shares) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode t : shares.path("tenants")) {
            JsonNode usage = t.path("openPeriod");
            JsonNode grant = t.path("grant");
            rows.add(List.of(t.path("tenant").asText(), number("%.4f", t.path("weight")),
                    number("%.6f", t.path("share")), decimal(usage.path("actual")), number("%.6f", usage.path("rho")),
                    decimal(usage.path("lendingBalance")), number("%.3f", grant.path("vcores")),
                    number("%.3f", grant.path("memoryMb")), number("%.0f", grant.path("gpus"))));
        }
        return rows;
    }

    private static String number(String format, JsonNode value) {
        return value.isNumber() ? String.format(Locale.ROOT, format, value.asDouble()) : "";
    }

    private static String decimal(JsonNode value) {
        return value.isNumber() ? value.decimalValue().toPlainString() : "";
    }
}
