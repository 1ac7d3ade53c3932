package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

class CommittedStartsTest {

    @Test
    void aStartIsKnownFromItsCommitOnAndAfterItsFinishIsCommitted() {
        CommittedStarts starts = new CommittedStarts(10);
        assertThat(starts.known(start("c1", "t1"))).isFalse();

        starts.committed(List.of(stored(start("c1", "t1")), stored(start("c1", "t2"))));
        assertThat(starts.known(start("c1", "t1"))).isTrue();
        assertThat(starts.known(start("c2", "t1"))).as("another cluster's task of the same id").isFalse();
        assertThat(starts.known(finish("c1", "t1"))).as("only starts are ever left out").isFalse();

        starts.committed(List.of(stored(finish("c1", "t1"))));
        assertThat(starts.known(start("c1", "t1"))).as("a start delivered after its task's finish").isTrue();
        assertThat(starts.known(start("c1", "t2"))).isTrue();
        assertThat(starts.size()).isEqualTo(1);
        assertThat(starts.finished()).isEqualTo(1);
    }

    @Test
    void theTaskFinishedFirstIsLetGoFirst() {
        CommittedStarts starts = new CommittedStarts(2);
        for (String task : List.of("t1", "t2", "t3")) {
            starts.committed(List.of(stored(start("c", task)), stored(finish("c", task))));
        }
        assertThat(starts.finished()).isEqualTo(2);
        assertThat(starts.size()).isZero();
        assertThat(starts.known(start("c", "t1"))).as("let go: sent, and deduplicated by PostgreSQL").isFalse();
        assertThat(starts.known(start("c", "t2"))).isTrue();
        assertThat(starts.known(start("c", "t3"))).isTrue();
        starts.committed(List.of(stored(finish("c", "t9"))));
        assertThat(starts.finished()).as("a finish whose start is not known adds nothing").isEqualTo(2);
    }

    @Test
    void anEarlierStartAfterTheFinishReplacesTheFinishedTasksStart() {
        CommittedStarts starts = new CommittedStarts(10);
        starts.committed(List.of(stored(start("c", "t1", 1_000)), stored(finish("c", "t1"))));
        assertThat(starts.known(start("c", "t1", 1_000))).as("the finish's repeated start, late").isTrue();
        assertThat(starts.known(start("c", "t1", 500))).as("an earlier one replaces the stored start").isFalse();

        starts.committed(List.of(stored(start("c", "t1", 500))));
        assertThat(starts.known(start("c", "t1", 700))).isTrue();
        assertThat(starts.known(start("c", "t1", 400))).isFalse();
        assertThat(starts.size()).as("still finished, not running again").isZero();
        assertThat(starts.finished()).isEqualTo(1);
    }

    @Test
    void aFullSetStartsAfresh() {
        CommittedStarts starts = new CommittedStarts(2);
        starts.committed(List.of(stored(start("c", "t1")), stored(start("c", "t2")), stored(start("c", "t3"))));
        assertThat(starts.size()).isEqualTo(1);
        assertThat(starts.known(start("c", "t3"))).isTrue();
        assertThat(starts.known(start("c", "t1"))).isFalse();
    }

    @Test
    void otherFactsAreNeverKnown() {
        CommittedStarts starts = new CommittedStarts(10);
        LedgerFact demand = new LedgerFact.Demand("c", "root.a", "app", ResourceVector.ZERO, 1, "event:e1");
        starts.committed(List.of(stored(demand)));
        assertThat(starts.known(demand)).isFalse();
        assertThat(starts.size()).isZero();
    }

    @Test
    void anEarlierStartOfAKnownTaskIsNotLeftOutButALaterOneIs() {
        CommittedStarts starts = new CommittedStarts(10);
        starts.committed(List.of(stored(start("c", "t1", 1_000))));
        assertThat(starts.known(start("c", "t1", 5_000))).as("a later start (RUNNING after ALLOCATED)").isTrue();
        assertThat(starts.known(start("c", "t1", 500))).as("an earlier one replaces the stored start").isFalse();

        starts.committed(List.of(stored(start("c", "t1", 500))));
        assertThat(starts.known(start("c", "t1", 1_000))).isTrue();
    }

    @Test
    void aFinishedTasksStartAtTheSameInstantIsKnownOnlyWhenItIsTheSameFact() {
        CommittedStarts starts = new CommittedStarts(10);
        starts.committed(List.of(stored(start("c", "t1", 1_000)), stored(finish("c", "t1"))));
        LedgerFact other = new LedgerFact.Event(new LedgerEvent.TaskStarted("c", "t1", TenantPath.parse("root.b"),
                "app", new ResourceVector(1000, 1024, 0), 1_000), "task:t1:start");
        assertThat(starts.known(other)).as("another start at the same instant: PostgreSQL decides").isFalse();
        starts.committed(List.of(stored(other)));
        assertThat(starts.finished()).as("which one is stored is not known here any more").isZero();
        assertThat(starts.known(start("c", "t1", 1_000))).isFalse();
    }

    @Test
    void aBatchDecodedWhileTheOneBeforeWasCommittedLeavesOutTheStartsThatOneStored() {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("yarn", 0, 7, null, null);
        PoisonRecords.Share running = new PoisonRecords.Share(record, List.of(stored(start("c", "t1"))), null);
        PoisonRecords.Share finished = new PoisonRecords.Share(record, List.of(stored(start("c", "t2")),
                stored(finish("c", "t2"))), null);
        PoisonRecords.Share admission = new PoisonRecords.Share(record, List.of(),
                new AdmissionRecord("c", "e", 1, "JobSubmitted", "application/json", new byte[0]));
        Batch batch = new Batch(3, List.of(running, finished, admission), 1, Map.of(),
                new WaitingStartTable.Changes());
        CommittedStarts starts = new CommittedStarts(10);
        assertThat(batch.lessKnown(starts)).as("nothing known: the same batch").isSameAs(batch);

        starts.committed(List.of(stored(start("c", "t1")), stored(start("c", "t2"))));
        Batch less = batch.lessKnown(starts);
        assertThat(less.facts()).extracting(SourcedFact::fact).containsExactly(finish("c", "t2"));
        assertThat(less.shares()).hasSize(2).last().isSameAs(admission);
        assertThat(less.known()).isEqualTo(3);
        assertThat(less.records()).isEqualTo(3);
    }

    @Test
    void knownStartsIsRefusedWhenNegativeOrBeyondTheHeap() {
        long heap = 512L << 20;
        assertThat(CommittedStarts.problem(0, heap)).isNull();
        assertThat(CommittedStarts.problem(250_000, heap)).as("the default").isNull();
        assertThat(CommittedStarts.problem(624_268, heap)).isNull();
        assertThat(CommittedStarts.problem(-1, heap)).isEqualTo("fairledger.ingest.known-starts must be between 0 and "
                + "624268 (512 MB of heap at up to 860 bytes each), got -1");
        assertThat(CommittedStarts.problem(624_269, heap)).endsWith("got 624269");
        assertThat(CommittedStarts.problem(Integer.MAX_VALUE, heap)).endsWith("got 2147483647");
    }

    static LedgerFact start(String cluster, String task) {
        return start(cluster, task, 1_000);
    }

    static LedgerFact start(String cluster, String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, task, TenantPath.parse("root.a"), "app",
                new ResourceVector(1000, 1024, 0), at), "task:" + task + ":start");
    }

    static LedgerFact finish(String cluster, String task) {
        return new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, task, 2_000), "task:" + task + ":finish");
    }

    static SourcedFact stored(LedgerFact fact) {
        return new SourcedFact(fact, "e-" + fact.dedupeKey(), "yarn", 0, 0);
    }
}
