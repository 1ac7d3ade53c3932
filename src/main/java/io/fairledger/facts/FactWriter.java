package io.fairledger.facts;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;

import org.postgresql.PGConnection;

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
 * rejects the copy, the savepoint is rolled back and the batch goes the safe way: {@code COPY} into a session-local
 * staging table, then the new keys are inserted, the stored starts that an earlier start replaces are deleted from
 * their month and their key moved, and the facts of the new and moved keys are inserted (docs/benchmarks.md,
 * ingestion, fourth round, for the cost of the safe way).
 */
public final class FactWriter {

    private static final String FACT_COLUMNS = "cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
            + "source_topic, source_partition, source_offset";
    /** Per session; emptied by every commit, so a pooled connection never carries rows from one batch to the next. */
    private static final String CREATE_STAGING = "CREATE TEMP TABLE IF NOT EXISTS fact_staging (cluster_id TEXT, "
            + "dedupe_key TEXT, event_id TEXT, event_time_ms BIGINT, kind TEXT, fact TEXT, source_topic TEXT, "
            + "source_partition INT, source_offset BIGINT, keep BOOLEAN NOT NULL DEFAULT FALSE) "
            + "ON COMMIT DELETE ROWS";
    private static final String COPY_FACTS = "COPY ledger_fact (" + FACT_COLUMNS + ") FROM STDIN";
    private static final String COPY_KEYS = "COPY ledger_fact_key (cluster_id, dedupe_key, event_time_ms) FROM STDIN";
    private static final String COPY_STAGING = "COPY fact_staging (" + FACT_COLUMNS + ") FROM STDIN";
    /** The SQLSTATE of a key already stored. */
    private static final String UNIQUE_VIOLATION = "23505";
    /** Keys not stored yet: stored, and their facts kept. */
    private static final String NEW_KEYS = "WITH fresh AS (INSERT INTO ledger_fact_key (cluster_id, dedupe_key, "
            + "event_time_ms) SELECT cluster_id, dedupe_key, event_time_ms FROM fact_staging ON CONFLICT DO NOTHING "
            + "RETURNING cluster_id, dedupe_key) UPDATE fact_staging s SET keep = TRUE FROM fresh "
            + "WHERE s.cluster_id = fresh.cluster_id AND s.dedupe_key = fresh.dedupe_key";
    /**
     * Stored starts that a staged start replaces ({@link Dedupe#replaces}, same order: time, then the encoding in
     * code-point order): deleted from their month, their key moved to the staged time, the staged fact kept (and given
     * this transaction's id when inserted, so the live ledgers read it again as a late fact).
     */
    private static final String REPLACED_STARTS = "WITH replaced AS (DELETE FROM ledger_fact f USING fact_staging s, "
            + "ledger_fact_key k WHERE NOT s.keep AND k.cluster_id = s.cluster_id AND k.dedupe_key = s.dedupe_key "
            + "AND f.cluster_id = k.cluster_id AND f.dedupe_key = k.dedupe_key AND f.event_time_ms = k.event_time_ms "
            + "AND f.kind = 'TaskStarted' AND s.kind = 'TaskStarted' AND (s.event_time_ms < f.event_time_ms "
            + "OR (s.event_time_ms = f.event_time_ms AND s.fact COLLATE \"C\" < f.fact COLLATE \"C\")) "
            + "RETURNING f.cluster_id, f.dedupe_key), moved AS (UPDATE ledger_fact_key k "
            + "SET event_time_ms = s.event_time_ms FROM replaced r, fact_staging s WHERE k.cluster_id = r.cluster_id "
            + "AND k.dedupe_key = r.dedupe_key AND s.cluster_id = r.cluster_id AND s.dedupe_key = r.dedupe_key "
            + "RETURNING k.cluster_id, k.dedupe_key) UPDATE fact_staging s SET keep = TRUE FROM moved "
            + "WHERE s.cluster_id = moved.cluster_id AND s.dedupe_key = moved.dedupe_key";
    private static final String KEPT_FACTS = "INSERT INTO ledger_fact (" + FACT_COLUMNS + ") SELECT " + FACT_COLUMNS
            + " FROM fact_staging WHERE keep";

    private FactWriter() {
    }

    /**
     * Drops the batch's own duplicates ({@link Dedupe}: the earliest start of a task, else the first), then copies the
     * rest straight into {@code ledger_fact} and its keys into {@code ledger_fact_key}, or, when a key is already
     * stored, goes through the staging table, which skips stored keys but lets an earlier task start replace the stored
     * one. Returns the facts inserted or replaced.
     */
    public static int insert(Connection c, List<SourcedFact> facts) throws SQLException {
        if (facts.isEmpty()) {
            return 0;
        }
        List<SourcedFact> unique = Dedupe.keptOfEachKey(facts, SourcedFact::fact);
        CopyText rows = new CopyText(unique.size() * 256);
        CopyText keys = new CopyText(unique.size() * 64);
        for (SourcedFact s : unique) {
            rows.field(s.fact().clusterId()).field(s.fact().dedupeKey()).field(s.eventId()).field(s.fact().at())
                    .field(FactCodec.kind(s.fact())).field(FactCodec.encode(s.fact())).field(s.topic())
                    .field(s.partition()).last(s.offset());
            keys.field(s.fact().clusterId()).field(s.fact().dedupeKey()).last(s.fact().at());
        }
        byte[] text = rows.bytes();
        Savepoint fresh = c.setSavepoint();
        try {
            copy(c, COPY_KEYS, keys.bytes());
            long copied = copy(c, COPY_FACTS, text);
            c.releaseSavepoint(fresh);
            return Math.toIntExact(copied);
        } catch (SQLException e) {
            if (!UNIQUE_VIOLATION.equals(e.getSQLState())) {
                throw e;
            }
            c.rollback(fresh);
        }
        try (Statement st = c.createStatement()) {
            st.execute(CREATE_STAGING);
        }
        copy(c, COPY_STAGING, text);
        try (Statement st = c.createStatement()) {
            st.executeUpdate(NEW_KEYS);
            st.executeUpdate(REPLACED_STARTS);
            return st.executeUpdate(KEPT_FACTS);
        }
    }

    private static long copy(Connection c, String sql, byte[] text) throws SQLException {
        try {
            return c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new ByteArrayInputStream(text));
        } catch (IOException e) {
            throw new SQLException("cannot stream facts to PostgreSQL: " + e.getMessage(), e);
        }
    }

    /** Rows in PostgreSQL's COPY text format: tab-separated, newline-terminated, backslash escapes. */
    private static final class CopyText {
        private final StringBuilder text;

        CopyText(int capacity) {
            text = new StringBuilder(capacity);
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

        byte[] bytes() {
            return text.toString().getBytes(StandardCharsets.UTF_8);
        }
    }

}
