package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;

class CommittedStartsTest {

    @Test
    void aStartIsKnownFromItsCommitUntilItsFinishIsCommitted() {
        CommittedStarts starts = new CommittedStarts(10);
        assertThat(starts.known(start("c1", "t1"))).isFalse();

        starts.committed(List.of(stored(start("c1", "t1")), stored(start("c1", "t2"))));
        assertThat(starts.known(start("c1", "t1"))).isTrue();
        assertThat(starts.known(start("c2", "t1"))).as("another cluster's task of the same id").isFalse();
        assertThat(starts.known(finish("c1", "t1"))).as("only starts are ever left out").isFalse();

        starts.committed(List.of(stored(finish("c1", "t1"))));
        assertThat(starts.known(start("c1", "t1"))).isFalse();
        assertThat(starts.known(start("c1", "t2"))).isTrue();
        assertThat(starts.size()).isEqualTo(1);
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
