package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.PoisonRecords.Share;

/**
 * The bisection on its own, with a store that refuses given records the way PostgreSQL does (an SQLSTATE of class 22
 * or 23) or fails as an unreachable database does (class 08).
 */
class PoisonRecordsTest {

    @Test
    void everyRecordRefusedAloneIsFoundAndTheRestCommitted() throws SQLException {
        List<Share> shares = shares(1000);
        Set<Long> poison = Set.of(3L, 500L, 999L);
        List<Long> deadLettered = new ArrayList<>();
        int[] trials = {0};
        PoisonRecords.Committed done = PoisonRecords.commit(shares, (facts, admissions) -> {
            refuse(admissions, poison, "22021");
            return admissions.size();
        }, (facts, admissions) -> {
            trials[0]++;
            refuse(admissions, poison, "22021");
        }, (record, reason) -> {
            assertThat(reason).startsWith("store-rejected: SQLSTATE 22021: ERROR: refused e").doesNotContain("Where");
            deadLettered.add(record.offset());
        }, false);
        assertThat(deadLettered).containsExactlyInAnyOrder(3L, 500L, 999L);
        assertThat(done.inserted()).isEqualTo(997);
        assertThat(done.kept()).hasSize(997).noneMatch(s -> poison.contains(s.source().offset()));
        assertThat(trials[0]).as("about 2 log2 n trials per bad record, not n").isLessThan(3 * 2 * 11);
    }

    @Test
    void aDatabaseThatIsAwayIsNotBisected() {
        List<Share> shares = shares(10);
        List<Long> deadLettered = new ArrayList<>();
        assertThatThrownBy(() -> PoisonRecords.commit(shares, (facts, admissions) -> {
            throw new SQLException("connection refused", "08001");
        }, (facts, admissions) -> {
            throw new AssertionError("no trial for a connection failure");
        }, (record, reason) -> deadLettered.add(record.offset()), true)).hasMessage("connection refused");
        assertThat(deadLettered).isEmpty();
    }

    @Test
    void aFailureNoSingleRecordExplainsFailsTheBatch() {
        List<Share> shares = shares(8);
        assertThatThrownBy(() -> PoisonRecords.commit(shares, (facts, admissions) -> {
            if (admissions.size() > 4) {
                throw new SQLException("too much together", "54000");
            }
            return admissions.size();
        }, (facts, admissions) -> {
            if (admissions.size() > 4) {
                throw new SQLException("too much together", "54000");
            }
        }, (record, reason) -> {
            throw new AssertionError("nothing to dead-letter");
        }, true)).hasMessage("too much together");
    }

    @Test
    void aFailureOfNoKnownKindIsBisectedOnTheLastTryOnly() throws SQLException {
        List<Share> shares = shares(16);
        List<Long> deadLettered = new ArrayList<>();
        PoisonRecords.Store store = (facts, admissions) -> {
            refuse(admissions, Set.of(5L), "P0001");
            return admissions.size();
        };
        PoisonRecords.Trial trial = (facts, admissions) -> refuse(admissions, Set.of(5L), "P0001");
        assertThatThrownBy(() -> PoisonRecords.commit(shares, store, trial, (record, reason) -> {
            throw new AssertionError("not before the last try");
        }, false)).isInstanceOf(SQLException.class);

        PoisonRecords.Committed done = PoisonRecords.commit(shares, store, trial, (record, reason) -> {
            assertThat(reason).startsWith("store-rejected: failed 3 times: SQLSTATE P0001: ERROR: refused e5");
            deadLettered.add(record.offset());
        }, true);
        assertThat(deadLettered).containsExactly(5L);
        assertThat(done.inserted()).isEqualTo(15);
    }

    private static void refuse(List<AdmissionRecord> admissions, Set<Long> poison, String sqlState)
            throws SQLException {
        for (AdmissionRecord a : admissions) {
            if (poison.contains(a.eventTimeMs())) {
                throw new SQLException("ERROR: refused " + a.eventId() + "\n  Where: COPY line 1", sqlState);
            }
        }
    }

    /** One admission record per source record, its offset as event time, so the store can tell them apart. */
    private static List<Share> shares(int n) {
        List<Share> shares = new ArrayList<>();
        for (long offset = 0; offset < n; offset++) {
            ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("fairledger.jobs", 0, offset, null,
                    new byte[0]);
            shares.add(new Share(record, List.of(),
                    new AdmissionRecord("c", "e" + offset, offset, "JobSubmitted", null, new byte[0])));
        }
        return shares;
    }
}
