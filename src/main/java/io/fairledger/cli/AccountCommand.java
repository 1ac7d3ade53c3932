package io.fairledger.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fairledger.accounting.Books;
import io.fairledger.live.LiveLedger;
import io.fairledger.live.LiveView;
import io.fairledger.live.rest.LiveViewsModel;
import io.fairledger.accounting.LedgerFact;
import io.fairledger.accounting.LedgerSettings;
import io.fairledger.accounting.StatementView;
import io.fairledger.ingest.Normaliser;
import io.fairledger.ingest.schema.Decoded;
import io.fairledger.ingest.schema.EventDecoder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fairledger account --events F.jsonl --config C --out DIR}: the server's books without the server. Each line
 * is one event in the JSON encoding of kafka-schemas/ (with its {@code type}); it is decoded, validated and normalised
 * exactly as the consumer does, duplicates are dropped as the fact store drops them, and the statements are computed
 * by the same {@link Books}. Lines the server would dead-letter go to {@code DIR/dead-letters.jsonl} with their reason.
 */
@Command(name = "account", mixinStandardHelpOptions = true, description = "Compute a cluster's statements from a JSONL file of events, without a database or broker.")
public final class AccountCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--events", required = true, paramLabel = "F.jsonl", description = "Events, one JSON object per line, each with its \"type\" (kafka-schemas/examples/ shows every type).")
    Path events;

    @Option(names = "--config", required = true, paramLabel = "C.json", description = "The cluster's ledger settings (docs/accounting.md): registeredAt, capacity, tenants, memory, period, chargeback.")
    Path config;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Where statements.json, statements.csv, grants.json (the grants as of the last event, as GET .../grants gives them) and dead-letters.jsonl are written.")
    Path out;

    @Option(names = "--cluster", paramLabel = "ID", description = "The cluster to account (default: the only cluster in the events).")
    String cluster;

    @Option(names = "--until", paramLabel = "INSTANT", description = "Close every period ending by this ISO-8601 instant (default: the last event's time).")
    Instant until;

    @Option(names = "--grant-interval", paramLabel = "DURATION", defaultValue = "PT10S", description = "The interval grants.json's grants hold for, as the server's fairledger.grants.interval (ISO-8601 duration, default ${DEFAULT-VALUE}).")
    Duration grantInterval;

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        LedgerSettings settings;
        try {
            settings = JSON.readValue(config.toFile(), LedgerSettings.class);
        } catch (IOException e) {
            err.println("fairledger account: cannot read ledger settings " + config + ": " + e.getMessage());
            return 2;
        }
        Files.createDirectories(out);
        List<LedgerFact> facts = new ArrayList<>();
        Set<String> clusters = new TreeSet<>();
        List<String> deadLetters = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(events, StandardCharsets.UTF_8)) {
            EventDecoder decoder = new EventDecoder(Clock.systemUTC());
            int lineNumber = 0;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                String reason = accept(decoder, line, facts, clusters);
                if (reason != null) {
                    deadLetters.add(JSON.createObjectNode().put("line", lineNumber).put("reason", reason)
                            .put("value", line).toString());
                }
            }
        } catch (NoSuchFileException e) {
            err.println("fairledger account: no events file " + events);
            return 2;
        }
        Files.write(out.resolve("dead-letters.jsonl"), deadLetters);
        String clusterId = cluster != null ? cluster : clusters.size() == 1 ? clusters.iterator().next() : null;
        if (clusterId == null) {
            err.println("fairledger account: the events name " + (clusters.isEmpty()
                    ? "no cluster"
                    : "clusters "
                            + clusters)
                    + "; choose one with --cluster");
            return 2;
        }
        List<LedgerFact> ofCluster = dedupe(facts, clusterId);
        Instant end = until != null
                ? until
                : Instant.ofEpochMilli(ofCluster.stream().mapToLong(LedgerFact::at).max()
                        .orElse(settings.registeredAt() == null ? 0 : settings.registeredAt().toEpochMilli()));
        List<StatementView> statements;
        try {
            statements = Books.statements(clusterId, settings, ofCluster, end);
        } catch (IllegalArgumentException e) {
            err.println("fairledger account: " + e.getMessage());
            return 2;
        }
        JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("statements.json").toFile(), statements);
        LiveView live = new LiveLedger(clusterId, settings, ofCluster).view(grantInterval.toMillis());
        JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("grants.json").toFile(),
                LiveViewsModel.GrantsView.of(live));
        Files.writeString(out.resolve("statements.csv"), StatementView.csv(statements));
        spec.commandLine().getOut().printf("%d statement(s) for %s up to %s from %d fact(s); %d dead letter(s) -> %s%n",
                statements.size(), clusterId, end, ofCluster.size(), deadLetters.size(), out);
        return 0;
    }

    /** Decodes and normalises one line as the consumer would; returns the dead-letter reason, or null. */
    private static String accept(EventDecoder decoder, String line, List<LedgerFact> facts, Set<String> clusters) {
        Decoded decoded = decoder.decodeJson(line.getBytes(StandardCharsets.UTF_8));
        if (decoded instanceof Decoded.Rejected rejected) {
            return rejected.rejection().describe();
        }
        Decoded.Ok ok = (Decoded.Ok) decoded;
        Normaliser.Result result = Normaliser.normalise(ok.event());
        if (result instanceof Normaliser.Invalid invalid) {
            return "invalid: " + invalid.reason();
        }
        clusters.add(ok.event().cluster());
        if (result instanceof Normaliser.Facts f) {
            facts.addAll(f.facts());
        }
        return null;
    }

    /** The facts of {@code clusterId}, first of each dedupe key kept, as the fact store's primary key does. */
    private static List<LedgerFact> dedupe(List<LedgerFact> facts, String clusterId) {
        Set<String> seen = new HashSet<>();
        List<LedgerFact> out = new ArrayList<>();
        for (LedgerFact f : facts) {
            if (f.clusterId().equals(clusterId) && seen.add(f.dedupeKey())) {
                out.add(f);
            }
        }
        return out;
    }
}
