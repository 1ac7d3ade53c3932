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
 * The one writer of {@code ledger_fact}, on the caller's connection and inside its transaction (the consumer commits a
 * batch's facts with its offsets). Plain JDBC, because the hot path is the batch's facts streamed with {@code COPY}
 * (columns with a default, such as {@code ingested_at} and {@code tx}, are filled by PostgreSQL).
 * <p>
 * A batch is first copied straight into {@code ledger_fact} under a savepoint: when none of its keys is stored yet, the
 * usual case, that is the whole insert. When one is (a redelivered event), the primary key rejects the copy, the
 * savepoint is rolled back and the batch goes the safe way: {@code COPY} into a session-local staging table, then one
 * {@code INSERT ... SELECT ... ON CONFLICT}, which costs PostgreSQL about twice as much per row
 * (docs/benchmarks.md, ingestion, fourth round).
 */
public final class FactWriter {

    private static final String FACT_COLUMNS = "cluster_id, dedupe_key, event_id, event_time_ms, kind, fact, "
            + "source_topic, source_partition, source_offset";
    /** Per session; emptied by every commit, so a pooled connection never carries rows from one batch to the next. */
    private static final String CREATE_STAGING = "CREATE TEMP TABLE IF NOT EXISTS fact_batch (cluster_id TEXT, "
            + "dedupe_key TEXT, event_id TEXT, event_time_ms BIGINT, kind TEXT, fact TEXT, source_topic TEXT, "
            + "source_partition INT, source_offset BIGINT) ON COMMIT DELETE ROWS";
    private static final String COPY_FACTS = "COPY ledger_fact (" + FACT_COLUMNS + ") FROM STDIN";
    private static final String COPY_STAGING = "COPY fact_batch (" + FACT_COLUMNS + ") FROM STDIN";
    /** The SQLSTATE of a key already stored. */
    private static final String UNIQUE_VIOLATION = "23505";
    /**
     * Skips stored keys, except that an earlier start of a task replaces the stored one ({@link Dedupe#replaces}, same
     * order: time, then the encoding in code-point order); the replaced row gets this transaction's id, so the live
     * ledgers read it again as a late fact.
     */
    private static final String MOVE_STAGING = "INSERT INTO ledger_fact (" + FACT_COLUMNS + ") SELECT "
            + FACT_COLUMNS + " FROM fact_batch ON CONFLICT (cluster_id, dedupe_key) DO UPDATE SET "
            + "event_id = EXCLUDED.event_id, event_time_ms = EXCLUDED.event_time_ms, fact = EXCLUDED.fact, "
            + "source_topic = EXCLUDED.source_topic, source_partition = EXCLUDED.source_partition, "
            + "source_offset = EXCLUDED.source_offset, ingested_at = now(), tx = pg_current_xact_id() "
            + "WHERE ledger_fact.kind = 'TaskStarted' AND EXCLUDED.kind = 'TaskStarted' "
            + "AND (EXCLUDED.event_time_ms < ledger_fact.event_time_ms OR (EXCLUDED.event_time_ms = "
            + "ledger_fact.event_time_ms AND EXCLUDED.fact COLLATE \"C\" < ledger_fact.fact COLLATE \"C\"))";

    private FactWriter() {
    }

    /**
     * Drops the batch's own duplicates ({@link Dedupe}: the earliest start of a task, else the first), then copies the
     * rest straight into {@code ledger_fact}, or, when a key is already stored, through the staging table, which skips
     * stored keys but lets an earlier task start replace the stored one. Returns the rows inserted or replaced.
     */
    public static int insert(Connection c, List<SourcedFact> facts) throws SQLException {
        if (facts.isEmpty()) {
            return 0;
        }
        List<SourcedFact> unique = Dedupe.keptOfEachKey(facts, SourcedFact::fact);
        CopyText rows = new CopyText(unique.size() * 256);
        for (SourcedFact s : unique) {
            rows.field(s.fact().clusterId()).field(s.fact().dedupeKey()).field(s.eventId()).field(s.fact().at())
                    .field(FactCodec.kind(s.fact())).field(FactCodec.encode(s.fact())).field(s.topic())
                    .field(s.partition()).last(s.offset());
        }
        byte[] text = rows.bytes();
        Savepoint fresh = c.setSavepoint();
        try {
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
            return st.executeUpdate(MOVE_STAGING);
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
