package io.fairledger.perf.history;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

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
        HistoryWorkload workload = new HistoryWorkload(CLUSTER, START, facts, days, tenants, late, seed);
        try (RealDependency.Running postgres = PostgresDependency.start()) {
            String url = postgres.config().get("quarkus.datasource.jdbc.url");
            Flyway.configure().dataSource(url, postgres.config().get("quarkus.datasource.username"),
                    postgres.config().get("quarkus.datasource.password")).locations("classpath:db/migration").load()
                    .migrate();
            try (Connection c = CommittedOffsets.connect(postgres)) {
                Rate alone = copyAlone(c, workload);
                alone.print("COPY alone");
                alone.check(c, "SELECT count(*) FROM ledger_fact");
                empty(c);
                long backend = backendPid(c);
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                long[] rows = {0};
                long[] wallNs = {0};
                long[] clientNs = {0};
                Duration pg0 = ProcessStats.cpu(backend);
                forEachBatch(workload, false, batch -> {
                    long client0 = threads.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    rows[0] += sql(() -> FactWriter.insert(c, batch));
                    sql(() -> {
                        c.commit();
                        return 0;
                    });
                    wallNs[0] += System.nanoTime() - t0;
                    clientNs[0] += threads.getCurrentThreadCpuTime() - client0;
                });
                Rate writer = new Rate(rows[0], wallNs[0], ProcessStats.cpu(backend).minus(pg0));
                writer.print("FactWriter");
                System.out.printf("            this thread (encoding, JDBC) %.1f us/fact%n",
                        clientNs[0] / 1e3 / rows[0]);
                writer.check(c, "SELECT count(*) FROM ledger_fact");
            }
        }
        System.out.printf("load average %s%n", ProcessStats.loadAverage());
    }

    /**
     * PostgreSQL's own ceiling for {@code workload}'s facts into the database behind {@code c} (migrated as the
     * server's): each batch's new facts (one per key, the first) encoded to COPY text, then copied straight into
     * {@code ledger_fact_key} and {@code ledger_fact} and committed, only the copies and commits timed (the encoding
     * between them is not). {@link HistoryScale} runs it after its ingest, with a cluster of its own, into the same
     * table.
     */
    static Rate copyAlone(Connection c, HistoryWorkload workload) throws SQLException {
        c.setAutoCommit(false);
        FactPartitions.ensure(c, workload.start(), workload.days() / 28 + 2);
        long backend = backendPid(c);
        c.commit();
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        long[] rows = {0};
        long[] wallNs = {0};
        Duration pg0 = ProcessStats.cpu(backend);
        forEachBatch(workload, true, batch -> {
            byte[][] text = copyText(batch);
            long t0 = System.nanoTime();
            sql(() -> {
                copy.copyIn("COPY ledger_fact_key (cluster_id, dedupe_key, event_time_ms) FROM STDIN",
                        new ByteArrayInputStream(text[0]));
                copy.copyIn("COPY ledger_fact (cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
                        + "source_topic, source_partition, source_offset) FROM STDIN",
                        new ByteArrayInputStream(text[1]));
                c.commit();
                return 0;
            });
            wallNs[0] += System.nanoTime() - t0;
            rows[0] += batch.size();
        });
        return new Rate(rows[0], wallNs[0], ProcessStats.cpu(backend).minus(pg0));
    }

    /** Rows stored in {@code wallNs} of copying, and the PostgreSQL backend's CPU meanwhile. */
    record Rate(long rows, long wallNs, Duration backendCpu) {

        double perSecond() {
            return rows / (wallNs / 1e9);
        }

        double backendUsPerFact() {
            return backendCpu.toNanos() / 1e3 / rows;
        }

        void print(String way) {
            System.out.printf("%-11s %,10.0f facts/s (%,d in %.1f s); PostgreSQL backend %.1f us/fact%n", way,
                    perSecond(), rows, wallNs / 1e9, backendUsPerFact());
        }

        /** Fails unless {@code countSql} counts exactly the rows copied. */
        void check(Connection c, String countSql) throws SQLException {
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(countSql)) {
                rs.next();
                if (rs.getLong(1) != rows) {
                    throw new IllegalStateException(rs.getLong(1) + " rows stored of " + rows);
                }
            }
            c.commit();
        }
    }

    private interface Sql {
        long run() throws Exception;
    }

    private static long sql(Sql sql) {
        try {
            return sql.run();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The history's facts as the consumer sends them to {@link FactWriter}, in batches of {@link #BATCH_EVENTS} events,
     * each handed to {@code sink} as it fills (none held after): the start a YARN finish repeats is left out while its
     * task runs (the consumer's known starts), so a late RUNNING delivered after its container's COMPLETE is sent and
     * meets its stored key, as in {@link HistoryScale}; with {@code newKeysOnly} that start is left out too.
     */
    private static void forEachBatch(HistoryWorkload workload, boolean newKeysOnly, Consumer<List<SourcedFact>> sink) {
        EventDecoder decoder = new EventDecoder(Clock.systemUTC());
        Intake intake = new Intake(cluster -> Instant.MIN, KnownStarts.NONE, TenantBound.of(cluster -> List.of()));
        // the tasks of which one event of two was seen: a start of one of them is a repeat
        Set<String> seenOnce = new HashSet<>();
        Set<String> running = new HashSet<>();
        List<SourcedFact> batch = new ArrayList<>();
        long[] offset = {0};
        workload.forEach(e -> {
            Intake.Outcome outcome = intake.accept(decoder.decode(EventTopics.YARN_CONTAINERS, EventDecoder.JSON,
                    e.json().getBytes(StandardCharsets.UTF_8)));
            if (!(outcome instanceof Intake.Facts accepted)) {
                throw new IllegalStateException("not accepted: " + outcome + " " + e.json());
            }
            if (offset[0] > 0 && offset[0] % BATCH_EVENTS == 0) {
                sink.accept(List.copyOf(batch));
                batch.clear();
            }
            for (LedgerFact f : accepted.facts()) {
                if (f instanceof LedgerFact.Event ev && ev.event() instanceof LedgerEvent.TaskStarted s) {
                    boolean repeat = !seenOnce.add(s.taskId());
                    if (repeat) {
                        seenOnce.remove(s.taskId());
                    }
                    if (!running.add(s.taskId()) || repeat && newKeysOnly) {
                        continue;
                    }
                }
                if (f instanceof LedgerFact.Event ev && ev.event() instanceof LedgerEvent.TaskFinished fin) {
                    running.remove(fin.taskId());
                }
                batch.add(new SourcedFact(f, accepted.event().eventId(), EventTopics.YARN_CONTAINERS, 0, offset[0]));
            }
            offset[0]++;
        });
        if (!batch.isEmpty()) {
            sink.accept(List.copyOf(batch));
        }
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

    private static void empty(Connection c) throws SQLException {
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

    private static long backendPid(Connection c) throws SQLException {
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
