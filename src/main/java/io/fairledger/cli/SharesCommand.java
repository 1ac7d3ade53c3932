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
 * {@code fairledger shares --cluster C}: every tenant's granted share and resources as the server's grants give them
 * now ({@code GET /api/v1/clusters/{id}/grants}, roles resource-manager or admin), in the manner of Slurm's
 * {@code sshare}; one row per tenant, level by level, in the order the parent serves its children.
 */
@Command(name = "shares", mixinStandardHelpOptions = true, description = "Every tenant's granted share and resources now, from a running server.")
public final class SharesCommand implements Callable<Integer> {

    /** The table's columns, in order. */
    static final List<String> HEADER = List.of("parent", "tenant", "share", "vcores", "memory_mb", "gpus");

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
        JsonNode grants;
        try {
            grants = server.get(List.of("api", "v1", "clusters", cluster, "grants"), Map.of());
        } catch (ServerClient.ServerError e) {
            spec.commandLine().getErr().println("fairledger shares: " + e.getMessage());
            return 1;
        }
        if (output.json()) {
            out.println(grants.toPrettyString());
            return 0;
        }
        output.print(out, HEADER, rows(grants));
        return 0;
    }

    /** One table row per granted tenant. */
    static List<List<String>> rows(JsonNode grants) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode level : grants.path("levels")) {
            for (JsonNode g : level.path("grants")) {
                rows.add(List.of(level.path("parent").asText(), g.path("tenant").asText(),
                        String.format(Locale.ROOT, "%.6f", g.path("share").asDouble()),
                        String.format(Locale.ROOT, "%.3f", g.path("vcores").asDouble()),
                        String.format(Locale.ROOT, "%.0f", g.path("memoryMb").asDouble()),
                        String.format(Locale.ROOT, "%.0f", g.path("gpus").asDouble())));
            }
        }
        return rows;
    }
}
