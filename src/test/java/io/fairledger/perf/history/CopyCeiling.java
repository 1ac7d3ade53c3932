package io.fairledger.perf.history;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.flywaydb.core.Flyway;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.FactCodec;
import io.fairledger.facts.FactPartitions;
import io.fairledger.facts.FactWriter;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.Intake;
import io.fairledger.ingest.KnownStarts;
import io.fairledger.ingest.TenantBound;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.perf.CommittedOffsets;
import io.fairledger.perf.ProcessStats;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * PostgreSQL's own ceiling for {@link HistoryScale}'s facts: what the server's ingest could reach if nothing but the
 * storing cost anything. It generates the same history (same options, same seed), turns each event into the facts the
 * consumer sends (the real decoder and intake; a YARN finish's repeated start left out while its task runs, as the
 * consumer's known starts do) and groups them in batches of the consumer's 5,000 events. Then, into a real
 * PostgreSQL migrated as the server's (partitioned {@code ledger_fact} with its key, indexes and key table), one
 * connection, one transaction per batch:
 * <ol>
 * <li><b>COPY alone</b>: the new facts' rows (one per key, the first), encoded beforehand, copied straight into
 * {@code ledger_fact_key} and {@code ledger_fact} (the consumer's usual way), so only PostgreSQL and the socket are
 * timed;
 * <li><b>FactWriter</b>: the tables emptied, the facts as sent through {@link FactWriter#insert}, the server's write
 * path (encoding included; a batch holding a late RUNNING whose key is stored takes the slow way), without Kafka, the
 * live ledger or anything else in the process.
 * </ol>
 * Prints facts per second and CPU per stored fact (PostgreSQL's backend, and this thread's for decoding and encoding);
 * asserts nothing.
 *
 * <pre>
 * ./mvnw -B -Pbench test-compile exec:exec -Dapicurio.skip=true \
 *     -Dbench.main=io.fairledger.perf.history.CopyCeiling -Dbench="--facts 1000000 --days 3"
 * </pre>
 */
public final class CopyCeiling {

    private static final String CLUSTER = "bench-history";
    private static final Instant START = Instant.parse("2026-10-01T00:00:00Z");
    /** The consumer's {@code fairledger.ingest.max-poll-records}. */
    private static final int BATCH_EVENTS = 5_000;

    private CopyCeiling() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        long facts = Long.parseLong(o.getOrDefault("facts", "1000000"));
        int days = Integer.parseInt(o.getOrDefault("days", "3"));
        int tenants = Integer.parseInt(o.getOrDefault("tenants", "1000"));
        double late = Double.parseDouble(o.getOrDefault("late", "0.05"));
        long seed = Long.parseLong(o.getOrDefault("seed", "15"));
        System.out.printf("facts %,d, days %d, tenants %d, late %.2f, seed %d; load average %s%n", facts, days,
                tenants, late, seed, ProcessStats.loadAverage());

        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        List<List<SourcedFact>> batches = batches(
                new HistoryWorkload(CLUSTER, START, facts, days, tenants, late, seed));
        long decodeCpu = threads.getCurrentThreadCpuTime() - cpu0;
        long sent = batches.stream().mapToLong(List::size).sum();
        System.out.printf("%,d facts sent in %,d batches; decoding and normalising took %.1f us of CPU per fact "
                + "(one thread, JIT warm-up included)%n", sent, batches.size(), decodeCpu / 1e3 / sent);

        long encode0 = threads.getCurrentThreadCpuTime();
        List<byte[][]> encoded = new ArrayList<>(batches.size());
        Set<String> keys = new HashSet<>();
        long rows = 0;
        for (List<SourcedFact> batch : batches) {
            List<SourcedFact> fresh = batch.stream().filter(s -> keys.add(s.fact().dedupeKey())).toList();
            rows += fresh.size();
            encoded.add(copyText(fresh));
        }
        System.out.printf("%,d new facts (the rest meet a stored key); encoding their COPY text took %.1f us of CPU "
                + "per fact%n", rows, (threads.getCurrentThreadCpuTime() - encode0) / 1e3 / rows);

        try (RealDependency.Running postgres = PostgresDependency.start()) {
            String url = postgres.config().get("quarkus.datasource.jdbc.url");
            Flyway.configure().dataSource(url, postgres.config().get("quarkus.datasource.username"),
                    postgres.config().get("quarkus.datasource.password")).locations("classpath:db/migration").load()
                    .migrate();
            try (Connection c = CommittedOffsets.connect(postgres)) {
                c.setAutoCommit(false);
                FactPartitions.ensure(c, START, days / 28 + 2);
                long backend = backendPid(c);
                c.commit();
                CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();

                Duration pg0 = ProcessStats.cpu(backend);
                long t0 = System.nanoTime();
                for (byte[][] batch : encoded) {
                    copy.copyIn("COPY ledger_fact_key (cluster_id, dedupe_key, event_time_ms) FROM STDIN",
                            new ByteArrayInputStream(batch[0]));
                    copy.copyIn("COPY ledger_fact (cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
                            + "source_topic, source_partition, source_offset) FROM STDIN",
                            new ByteArrayInputStream(batch[1]));
                    c.commit();
                }
                report("COPY alone", rows, System.nanoTime() - t0, ProcessStats.cpu(backend).minus(pg0), 0, c);

                empty(c);
                pg0 = ProcessStats.cpu(backend);
                long client0 = threads.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                for (List<SourcedFact> batch : batches) {
                    FactWriter.insert(c, batch);
                    c.commit();
                }
                report("FactWriter", rows, System.nanoTime() - t0, ProcessStats.cpu(backend).minus(pg0),
                        threads.getCurrentThreadCpuTime() - client0, c);
            }
        }
        System.out.printf("load average %s%n", ProcessStats.loadAverage());
    }

    /**
     * The history's facts as the consumer sends them to {@link FactWriter}, in batches of {@link #BATCH_EVENTS} events:
     * the start a YARN finish repeats is left out while its task runs (the consumer's known starts), so a late RUNNING
     * delivered after its container's COMPLETE is sent and meets its stored key, as in {@link HistoryScale}.
     */
    private static List<List<SourcedFact>> batches(HistoryWorkload workload) {
        EventDecoder decoder = new EventDecoder(Clock.systemUTC());
        Intake intake = new Intake(cluster -> Instant.MIN, KnownStarts.NONE, TenantBound.of(cluster -> List.of()));
        Set<String> running = new HashSet<>();
        List<List<SourcedFact>> out = new ArrayList<>();
        out.add(new ArrayList<>());
        long[] offset = {0};
        workload.forEach(e -> {
            Intake.Outcome outcome = intake.accept(decoder.decode(EventTopics.YARN_CONTAINERS, EventDecoder.JSON,
                    e.json().getBytes(StandardCharsets.UTF_8)));
            if (!(outcome instanceof Intake.Facts accepted)) {
                throw new IllegalStateException("not accepted: " + outcome + " " + e.json());
            }
            if (offset[0] > 0 && offset[0] % BATCH_EVENTS == 0) {
                out.add(new ArrayList<>());
            }
            for (LedgerFact f : accepted.facts()) {
                if (f instanceof LedgerFact.Event ev && ev.event() instanceof LedgerEvent.TaskStarted s
                        && !running.add(s.taskId())) {
                    continue;
                }
                if (f instanceof LedgerFact.Event ev && ev.event() instanceof LedgerEvent.TaskFinished fin) {
                    running.remove(fin.taskId());
                }
                out.get(out.size() - 1).add(new SourcedFact(f, accepted.event().eventId(),
                        EventTopics.YARN_CONTAINERS, 0, offset[0]));
            }
            offset[0]++;
        });
        System.out.printf("%,d events%n", offset[0]);
        return out;
    }

    /** The key rows and the fact rows of a batch in COPY text; fails on a value that would need escaping. */
    private static byte[][] copyText(List<SourcedFact> batch) {
        StringBuilder keys = new StringBuilder(batch.size() * 64);
        StringBuilder rows = new StringBuilder(batch.size() * 320);
        for (SourcedFact s : batch) {
            LedgerFact f = s.fact();
            keys.append(plain(f.clusterId())).append('\t').append(plain(f.dedupeKey())).append('\t').append(f.at())
                    .append('\n');
            rows.append(plain(f.clusterId())).append('\t').append(plain(f.dedupeKey())).append('\t')
                    .append(plain(s.eventId())).append('\t').append(f.at()).append('\t')
                    .append(plain(FactCodec.kind(f))).append('\t').append(plain(FactCodec.encode(f))).append('\t')
                    .append(s.topic()).append('\t').append(s.partition()).append('\t').append(s.offset())
                    .append('\n');
        }
        return new byte[][]{keys.toString().getBytes(StandardCharsets.UTF_8),
                rows.toString().getBytes(StandardCharsets.UTF_8)};
    }

    private static String plain(String value) {
        if (value.indexOf('\\') >= 0 || value.indexOf('\t') >= 0 || value.indexOf('\n') >= 0
                || value.indexOf('\r') >= 0) {
            throw new IllegalStateException("this tool copies only values that need no escaping: " + value);
        }
        return value;
    }

    private static void report(String way, long rows, long wallNs, Duration backendCpu, long clientCpuNs,
            Connection c) throws Exception {
        long stored;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(*) FROM ledger_fact")) {
            rs.next();
            stored = rs.getLong(1);
        }
        c.commit();
        if (stored != rows) {
            throw new IllegalStateException(way + ": " + stored + " rows stored of " + rows);
        }
        System.out.printf("%-11s %,10.0f facts/s (%,d in %.1f s); PostgreSQL backend %.1f us/fact%s%n", way,
                rows / (wallNs / 1e9), rows, wallNs / 1e9, backendCpu.toNanos() / 1e3 / rows,
                clientCpuNs == 0
                        ? ""
                        : "; this thread (encoding, JDBC) %.1f us/fact".formatted(clientCpuNs / 1e3 / rows));
    }

    private static void empty(Connection c) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("TRUNCATE ledger_fact, ledger_fact_key");
        }
        c.commit();
        c.setAutoCommit(true);
        try (Statement st = c.createStatement()) {
            st.execute("VACUUM ANALYZE ledger_fact");
            st.execute("VACUUM ANALYZE ledger_fact_key");
        }
        c.setAutoCommit(false);
    }

    private static long backendPid(Connection c) throws Exception {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> out = new java.util.HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value, got " + args[i]);
            }
            out.put(args[i].substring(2), args[i + 1]);
        }
        if (args.length % 2 != 0) {
            throw new IllegalArgumentException("an option without a value: " + args[args.length - 1]);
        }
        return out;
    }
}
