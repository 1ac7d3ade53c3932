package io.fairledger.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fairledger.accounting.Books;
import io.fairledger.accounting.StatementCsv;
import io.fairledger.accounting.StatementView;
import io.fairledger.errors.Invalid;
import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.Intake;
import io.fairledger.ingest.SeenStarts;
import io.fairledger.ingest.TenantBound;
import io.fairledger.ingest.WaitingStarts;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.live.LiveLedger;
import io.fairledger.live.LiveView;
import io.fairledger.live.LiveViewsModel;
import io.fairledger.simulation.ProgressBar;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.SettingsLimits;

/**
 * {@code fairledger account --events F.jsonl --config C --out DIR}: the server's books without the server. Each line
 * is one event in the JSON encoding of kafka-schemas/ (with its {@code type}); it goes through the consumer's own
 * {@link Intake} (decoded, validated, normalised, duplicates dropped as the fact store drops them), and the statements are computed
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

    @Option(names = "--quiet", description = "No progress bar (it is also off when stderr is not a terminal).")
    boolean quiet;

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
        try {
            SettingsLimits.check(settings, "");
        } catch (Invalid e) {
            err.println("fairledger account: " + config + ": " + e.getMessage());
            return 2;
        }
        Files.createDirectories(out);
        List<LedgerFact> facts = new ArrayList<>();
        Set<String> clusters = new TreeSet<>();
        List<String> deadLetters = new ArrayList<>();
        ProgressBar progress = ProgressBar.onStderr(err, quiet, Files.exists(events) ? Files.size(events) : 0,
                "bytes");
        // lines are read as bytes and decoded as the server decodes a record: a line that is not UTF-8 is a dead
        // letter (undecodable), as on the server, not an exception that ends the run
        try (InputStream in = new BufferedInputStream(Files.newInputStream(events), 1 << 16)) {
            EventDecoder decoder = new EventDecoder(Clock.systemUTC());
            // the file is accounted for whichever cluster it names, registered at the settings' registeredAt
            Instant registeredAt = settings.registeredAt() == null ? Instant.MIN : settings.registeredAt();
            SeenStarts starts = new SeenStarts(Integer.MAX_VALUE);
            List<String> tenants = settings.tenants() == null
                    ? List.of()
                    : settings.tenants().stream().map(LedgerSettings.Tenant::path).toList();
            Intake intake = new Intake(anyCluster -> registeredAt, starts, TenantBound.of(anyCluster -> tenants));
            // a Mesos start without resources waits for them as on the server, under the settings' lateness
            WaitingStarts<Line> waiting = new WaitingStarts<>(anyCluster -> settings.lateness());
            int lineNumber = 0;
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            for (byte[] line = nextLine(in, buffer); line != null; line = nextLine(in, buffer)) {
                lineNumber++;
                progress.advance(line.length + 1L);
                if (new String(line, StandardCharsets.ISO_8859_1).isBlank()) {
                    continue;
                }
                Intake.Outcome outcome = intake.accept(decoder.decodeJson(line));
                Line read = new Line(lineNumber, new String(line, StandardCharsets.UTF_8));
                if (outcome instanceof Intake.Rejected rejected) {
                    deadLetters.add(read.deadLetter(rejected.reason()));
                } else if (outcome instanceof Intake.Admission admission) {
                    clusters.add(admission.event().cluster());
                } else if (outcome instanceof Intake.Waiting w) {
                    clusters.add(w.event().cluster());
                    waiting.hold(w.start(), read).ifPresent(refused -> deadLetters.add(read.deadLetter(
                            refused.reason())));
                    expire(waiting.advance(w.event().cluster(), w.start().at()), deadLetters);
                } else if (outcome instanceof Intake.Facts f) {
                    clusters.add(f.event().cluster());
                    facts.addAll(f.facts());
                    starts.saw(f.event(), f.facts());
                    if (f.resourced()) {
                        facts.addAll(waiting.release(f.facts()));
                    }
                    expire(waiting.advance(f.event().cluster(), f.event().eventTime().toEpochMilli()), deadLetters);
                }
            }
            expire(waiting.rest(), deadLetters);
            progress.finish();
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
        List<LedgerFact> ofCluster = Intake.dedupe(facts, clusterId);
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
        Files.writeString(out.resolve("statements.csv"), StatementCsv.write(statements));
        spec.commandLine().getOut().printf("%d statement(s) for %s up to %s from %d fact(s); %d dead letter(s) -> %s%n",
                statements.size(), clusterId, end, ofCluster.size(), deadLetters.size(), out);
        return 0;
    }

    /** One line of the events file, as its dead letter shows it. */
    private record Line(int number, String value) {
        String deadLetter(String reason) {
            return JSON.createObjectNode().put("line", number).put("reason", reason).put("value", value).toString();
        }
    }

    /** The dead letters of the starts that waited in vain for their resources. */
    private static void expire(List<WaitingStarts.Expired<Line>> expired, List<String> deadLetters) {
        for (WaitingStarts.Expired<Line> e : expired) {
            deadLetters.add(e.source().deadLetter(e.reason()));
        }
    }

    /** The next line's bytes without its line end ({@code \n} or {@code \r\n}), or null at the end of the file. */
    private static byte[] nextLine(InputStream in, ByteArrayOutputStream buffer) throws IOException {
        buffer.reset();
        int b = in.read();
        if (b < 0) {
            return null;
        }
        while (b >= 0 && b != '\n') {
            buffer.write(b);
            b = in.read();
        }
        byte[] line = buffer.toByteArray();
        if (line.length > 0 && line[line.length - 1] == '\r') {
            return Arrays.copyOf(line, line.length - 1);
        }
        return line;
    }
}
