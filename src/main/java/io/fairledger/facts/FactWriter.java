package io.fairledger.facts;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

import io.fairledger.core.ledger.LedgerEvent;

/**
 * The one writer of {@code ledger_fact} and of its key table {@code ledger_fact_key}, on the caller's connection and
 * inside its transaction (the consumer commits a batch's facts with its offsets). Plain JDBC, because the hot path is
 * the batch streamed with {@code COPY} (columns with a default, such as {@code ingested_at} and {@code tx}, are filled
 * by PostgreSQL).
 * <p>
 * {@code ledger_fact} is partitioned by month of event time (V60), and a unique index of a partitioned table must
 * include the event time; a task's start can be stored again with an earlier event time, in another month. So the one
 * fact per cluster and key rule ({@link Dedupe}) is kept by {@code ledger_fact_key}, one row per stored fact with its
 * event time, whose primary key is the cluster and the key alone.
 * <p>
 * A batch is first copied straight into both tables under a savepoint: when none of its keys is stored yet, the usual
 * case, that is the whole insert. When one is (a redelivered event, a start stored before), the key table's primary key
 * rejects the copy, the savepoint is rolled back and the batch's keys are inserted first, skipping the stored ones
 * ({@code ON CONFLICT DO NOTHING RETURNING}); the stored starts that an earlier start of the batch replaces are deleted
 * from their month and their key moved; then only the facts of the new and moved keys are copied. So a batch with a
 * few stored keys costs about what one without them costs, plus one narrow insert of its keys (docs/benchmarks.md,
 * ingestion, "late and repeated starts", for both costs).
 */
public final class FactWriter {

    private static final String FACT_COLUMNS = "cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
            + "source_topic, source_partition, source_offset";
    private static final String COPY_FACTS = "COPY ledger_fact (" + FACT_COLUMNS + ") FROM STDIN";
    private static final String COPY_KEYS = "COPY ledger_fact_key (cluster_id, dedupe_key, event_time_ms) FROM STDIN";
    /** The SQLSTATE of a key already stored. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** Stores the keys not stored yet and returns them; waits for a replica inserting the same key, as COPY does. */
    private static final String NEW_KEYS = "INSERT INTO ledger_fact_key (cluster_id, dedupe_key, event_time_ms) "
            + "SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[]) ON CONFLICT DO NOTHING "
            + "RETURNING cluster_id, dedupe_key";
    /**
     * Stored starts that a given start replaces ({@link Dedupe#SQL_REPLACES}, {@link Dedupe#replaces} in SQL): deleted
     * from their month, their key moved to the given time; returns the moved keys, whose given facts are then inserted
     * (with this transaction's id, so the live ledgers read them again as late facts).
     */
    private static final String REPLACED_STARTS = "WITH s (cluster_id, dedupe_key, event_time_ms, fact) AS ("
            + "SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[], ?::text[])), "
            + "replaced AS (DELETE FROM ledger_fact f USING s, ledger_fact_key k "
            + "WHERE k.cluster_id = s.cluster_id AND k.dedupe_key = s.dedupe_key "
            + "AND f.cluster_id = k.cluster_id AND f.dedupe_key = k.dedupe_key AND f.event_time_ms = k.event_time_ms "
            + "AND f.kind = 'TaskStarted' AND " + Dedupe.SQL_REPLACES + " RETURNING f.cluster_id, f.dedupe_key) "
            + "UPDATE ledger_fact_key k SET event_time_ms = s.event_time_ms FROM replaced r, s "
            + "WHERE k.cluster_id = r.cluster_id AND k.dedupe_key = r.dedupe_key AND s.cluster_id = r.cluster_id "
            + "AND s.dedupe_key = r.dedupe_key RETURNING k.cluster_id, k.dedupe_key";

    private FactWriter() {
    }

    /**
     * Drops the batch's own duplicates ({@link Dedupe}: the earliest start of a task, else the first), then copies the
     * rest straight into {@code ledger_fact} and its keys into {@code ledger_fact_key}, or, when a key is already
     * stored, inserts the keys first and copies only the facts whose key was new or whose earlier start replaced the
     * stored one. Returns the facts inserted or replaced.
     */
    public static int insert(Connection c, List<SourcedFact> facts) throws SQLException {
        return insert(c, facts, fact -> {
        });
    }

    /**
     * As {@link #insert(Connection, List)}, and hands each fact inserted or replaced to {@code stored}, in the batch's
     * order: exactly the rows this transaction adds to {@code ledger_fact} ({@link FreshFacts}).
     */
    public static int insert(Connection c, List<SourcedFact> facts, Consumer<LedgerFact> stored)
            throws SQLException {
        if (facts.isEmpty()) {
            return 0;
        }
        List<SourcedFact> unique = Dedupe.keptOfEachKey(facts, SourcedFact::fact);
        Savepoint fresh = c.setSavepoint();
        try {
            copy(c, COPY_KEYS, unique, s -> true, FactWriter::keyRow);
            long copied = copy(c, COPY_FACTS, unique, s -> true, FactWriter::factRow);
            c.releaseSavepoint(fresh);
            unique.forEach(s -> stored.accept(s.fact()));
            return Math.toIntExact(copied);
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
            c.rollback(fresh);
        }
        Set<Key> kept = newKeys(c, unique);
        List<SourcedFact> storedStarts = new ArrayList<>();
        for (SourcedFact s : unique) {
            if (!kept.contains(Key.of(s.fact())) && isTaskStart(s.fact())) {
                storedStarts.add(s);
            }
        }
        if (!storedStarts.isEmpty()) {
            kept.addAll(replacedStarts(c, storedStarts));
        }
        if (kept.isEmpty()) {
            return 0;
        }
        Predicate<SourcedFact> chosen = s -> kept.contains(Key.of(s.fact()));
        long copied = copy(c, COPY_FACTS, unique, chosen, FactWriter::factRow);
        unique.stream().filter(chosen).forEach(s -> stored.accept(s.fact()));
        return Math.toIntExact(copied);
    }

    /** Inserts the keys of {@code unique} that are not stored yet; returns them. */
    private static Set<Key> newKeys(Connection c, List<SourcedFact> unique) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(NEW_KEYS)) {
            setKeys(c, ps, unique);
            return returnedKeys(ps, unique.size());
        }
    }

    /** Replaces the stored starts that one of {@code starts} replaces; returns their keys. */
    private static Set<Key> replacedStarts(Connection c, List<SourcedFact> starts) throws SQLException {
        String[] encoded = new String[starts.size()];
        for (int i = 0; i < encoded.length; i++) {
            encoded[i] = FactCodec.encode(starts.get(i).fact());
        }
        try (PreparedStatement ps = c.prepareStatement(REPLACED_STARTS)) {
            setKeys(c, ps, starts);
            ps.setArray(4, c.createArrayOf("text", encoded));
            return returnedKeys(ps, starts.size());
        }
    }

    /** Sets parameters 1 to 3 of {@code ps} to the cluster ids, dedupe keys and event times of {@code facts}. */
    private static void setKeys(Connection c, PreparedStatement ps, List<SourcedFact> facts) throws SQLException {
        String[] clusters = new String[facts.size()];
        String[] dedupeKeys = new String[facts.size()];
        Long[] times = new Long[facts.size()];
        for (int i = 0; i < clusters.length; i++) {
            LedgerFact f = facts.get(i).fact();
            clusters[i] = f.clusterId();
            dedupeKeys[i] = f.dedupeKey();
            times[i] = f.at();
        }
        ps.setArray(1, c.createArrayOf("text", clusters));
        ps.setArray(2, c.createArrayOf("text", dedupeKeys));
        ps.setArray(3, c.createArrayOf("bigint", times));
    }

    private static Set<Key> returnedKeys(PreparedStatement ps, int expected) throws SQLException {
        Set<Key> out = new HashSet<>(expected * 2);
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                out.add(new Key(rs.getString(1), rs.getString(2)));
            }
        }
        return out;
    }

    /** A stored fact's key: its cluster and dedupe key. */
    private record Key(String clusterId, String dedupeKey) {

        static Key of(LedgerFact fact) {
            return new Key(fact.clusterId(), fact.dedupeKey());
        }
    }

    private static boolean isTaskStart(LedgerFact fact) {
        return fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted;
    }

    /** A {@code ledger_fact_key} row: cluster, key, event time. */
    private static void keyRow(SourcedFact s, CopyText row) {
        row.field(s.fact().clusterId()).field(s.fact().dedupeKey()).last(s.fact().at());
    }

    /** A {@code ledger_fact} row, in {@link #FACT_COLUMNS}' order. */
    private static void factRow(SourcedFact s, CopyText row) {
        row.field(s.fact().clusterId()).field(s.fact().dedupeKey()).field(s.eventId()).field(s.fact().at())
                .field(FactCodec.kind(s.fact())).field(FactCodec.encode(s.fact())).field(s.topic())
                .field(s.partition()).last(s.offset());
    }

    /**
     * Streams the rows of the facts {@code chosen} picks to PostgreSQL's {@code COPY}, encoded one at a time into a
     * chunk of about {@link CopyText#CHUNK} characters sent whenever it fills: so a batch never becomes one large text
     * and byte array (a batch of 5,000 facts was about 1.3 MB of each, twice, which the garbage collector of a small
     * heap handles as humongous objects, each starting a concurrent cycle), and a fact whose row is never sent (the
     * batch takes the slow way after its key copy) is never encoded. Returns the rows copied.
     */
    private static long copy(Connection c, String sql, List<SourcedFact> facts, Predicate<SourcedFact> chosen,
            BiConsumer<SourcedFact, CopyText> row) throws SQLException {
        CopyIn in = c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
        try {
            CopyText text = new CopyText(in);
            for (SourcedFact s : facts) {
                if (chosen.test(s)) {
                    row.accept(s, text);
                    text.sendWhenFull();
                }
            }
            text.send();
            return in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    /**
     * Rows in PostgreSQL's COPY text format (tab-separated, newline-terminated, backslash escapes), sent to a
     * {@link CopyIn} a chunk at a time.
     */
    private static final class CopyText {
        /** Characters gathered before they are sent: well below the heap's humongous size, and few sends per batch. */
        static final int CHUNK = 64 * 1024;

        private final StringBuilder text = new StringBuilder(CHUNK + 1024);
        private final CopyIn out;

        CopyText(CopyIn out) {
            this.out = out;
        }

        CopyText field(String value) {
            escape(value);
            text.append('\t');
            return this;
        }

        CopyText field(long value) {
            text.append(value).append('\t');
            return this;
        }

        void last(long value) {
            text.append(value).append('\n');
        }

        void sendWhenFull() throws SQLException {
            if (text.length() >= CHUNK) {
                send();
            }
        }

        void send() throws SQLException {
            if (text.length() > 0) {
                byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
                out.writeToCopy(bytes, 0, bytes.length);
                text.setLength(0);
            }
        }

        private void escape(String value) {
            if (plain(value)) {
                text.append(value);
                return;
            }
            for (int i = 0; i < value.length(); i++) {
                char ch = value.charAt(i);
                switch (ch) {
                    case '\\' -> text.append("\\\\");
                    case '\t' -> text.append("\\t");
                    case '\n' -> text.append("\\n");
                    case '\r' -> text.append("\\r");
                    default -> text.append(ch);
                }
            }
        }

        /** Whether {@code value} has nothing to escape: the common case, appended whole ({@code indexOf} is fast). */
        private static boolean plain(String value) {
            return value.indexOf('\\') < 0 && value.indexOf('\t') < 0 && value.indexOf('\n') < 0
                    && value.indexOf('\r') < 0;
        }
    }

}
