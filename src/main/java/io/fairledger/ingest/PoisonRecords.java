package io.fairledger.ingest;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import io.fairledger.facts.SourcedFact;

/**
 * Finds the records of a batch that PostgreSQL refuses on their own (text it cannot hold, a value a constraint
 * rejects), so one such record never blocks a partition and every cluster on it: the batch is bisected, each half tried
 * in a transaction that is rolled back, until the records that fail alone are found, each with the database's reason.
 * Errors that belong to the data ({@link StoreFailures.Kind#DATA}) are bisected at once; errors of no known kind only on
 * a batch's last try ({@link StoreFailures#TRIES}); the database unavailable fails the batch, which is then read again
 * however often it takes. One poison record among n costs about 2 log2 n rolled-back trials, on a path taken only when
 * a batch fails.
 */
final class PoisonRecords {

    /** The reason code of the dead letters of records the database refused (the metric's tag). */
    static final String REASON_CODE = "store-rejected";

    /** Commits a batch's facts and admission records with its offsets; returns how many facts were new. */
    interface Store {
        int commit(List<SourcedFact> facts, List<AdmissionRecord> admissions) throws SQLException;
    }

    /** Stores a batch's facts and admission records in a transaction rolled back, or throws what the database said. */
    interface Trial {
        void store(List<SourcedFact> facts, List<AdmissionRecord> admissions) throws SQLException;
    }

    /** One record's share of a batch: what it adds to the batch's facts and admission records. */
    record Share(ConsumerRecord<byte[], byte[]> source, List<SourcedFact> facts, AdmissionRecord admission) {
    }

    /** A record the database refused on its own, and why. */
    record Refused(Share share, String reason) {
    }

    /** Where a refused record goes (the dead letters), before the rest of its batch is committed. */
    interface DeadLetter {
        void send(ConsumerRecord<byte[], byte[]> record, String reason);
    }

    /** What a batch's commit kept and how many of its facts were new. */
    record Committed(List<Share> kept, int inserted) {
    }

    private PoisonRecords() {
    }

    /**
     * Commits the shares; when the database refuses some record of them, finds every record it refuses on its own,
     * sends each to {@code deadLetter} with the database's reason, and commits the rest. Throws when the failure is
     * not the data's (or, on the batch's {@code lastTry}, of no known kind), or when no single record explains it.
     */
    static Committed commit(List<Share> shares, Store store, Trial trial, DeadLetter deadLetter, boolean lastTry)
            throws SQLException {
        try {
            return new Committed(shares, store.commit(facts(shares), admissions(shares)));
        } catch (SQLException | RuntimeException e) {
            if (!refused(e, lastTry)) {
                throw e;
            }
            List<Refused> refused = new ArrayList<>();
            bisect(shares, trial, lastTry, refused);
            if (refused.isEmpty()) {
                throw e;
            }
            List<Share> kept = new ArrayList<>(shares);
            for (Refused r : refused) {
                deadLetter.send(r.share().source(), r.reason());
                kept.remove(r.share());
            }
            return new Committed(kept, store.commit(facts(kept), admissions(kept)));
        }
    }

    /** Whether {@code failure} is taken for the data's: always for {@link StoreFailures.Kind#DATA}. */
    private static boolean refused(Exception failure, boolean lastTry) {
        StoreFailures.Kind kind = StoreFailures.of(failure);
        return kind == StoreFailures.Kind.DATA || lastTry && kind == StoreFailures.Kind.UNKNOWN;
    }

    private static void bisect(List<Share> shares, Trial trial, boolean lastTry, List<Refused> refused)
            throws SQLException {
        if (shares.isEmpty()) {
            return;
        }
        try {
            trial.store(facts(shares), admissions(shares));
        } catch (SQLException | RuntimeException e) {
            if (!refused(e, lastTry)) {
                throw e;
            }
            if (shares.size() == 1) {
                refused.add(new Refused(shares.get(0), reason(e)));
                return;
            }
            int half = shares.size() / 2;
            bisect(shares.subList(0, half), trial, lastTry, refused);
            bisect(shares.subList(half, shares.size()), trial, lastTry, refused);
        }
    }

    static List<SourcedFact> facts(List<Share> shares) {
        List<SourcedFact> facts = new ArrayList<>();
        for (Share share : shares) {
            facts.addAll(share.facts());
        }
        return facts;
    }

    static List<AdmissionRecord> admissions(List<Share> shares) {
        List<AdmissionRecord> admissions = new ArrayList<>();
        for (Share share : shares) {
            if (share.admission() != null) {
                admissions.add(share.admission());
            }
        }
        return admissions;
    }

    /** The database's own words: {@code store-rejected: SQLSTATE 22021: invalid byte sequence ...}. */
    private static String reason(Exception e) {
        String tries = StoreFailures.of(e) == StoreFailures.Kind.DATA
                ? ""
                : "failed " + StoreFailures.TRIES + " times: ";
        return REASON_CODE + ": " + tries + StoreFailures.describe(e);
    }
}
