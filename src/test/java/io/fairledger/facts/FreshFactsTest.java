package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * What the live ledgers' tick takes from memory: the transactions below its horizon, each once; none it already passed;
 * the oldest let go beyond the bound; each cluster's facts in event-time order.
 */
class FreshFactsTest {

    @Test
    void aTickTakesTheTransactionsBelowItsHorizonOnceInEventTimeOrderByCluster() {
        FreshFacts fresh = new FreshFacts();
        fresh.stored(12, List.of(finish("a", "t1", 300), finish("b", "t2", 100)));
        fresh.stored(10, List.of(finish("a", "t3", 200), finish("a", "t4", 250)));
        fresh.stored(15, List.of(finish("a", "t5", 50)));

        FreshFacts.Taken taken = fresh.take("15");
        assertThat(taken.transactions()).containsExactly(10, 12);
        assertThat(taken.of("a")).extracting(LedgerFact::at).containsExactly(200L, 250L, 300L);
        assertThat(taken.of("b")).extracting(LedgerFact::dedupeKey).containsExactly("task:t2:finish");
        assertThat(taken.of("c")).isEmpty();
        assertThat(taken.earliest("a")).isEqualTo(200);
        assertThat(taken.earliest("c")).isNull();
        assertThat(taken.transactionArray()).isEqualTo("{10,12}");
        assertThat(fresh.held()).as("transaction 15 is not below the horizon 15: it may still run").isEqualTo(1);

        assertThat(fresh.take("15").transactions()).as("taken once").isEmpty();
        assertThat(fresh.take("16").of("a")).extracting(LedgerFact::at).containsExactly(50L);
    }

    @Test
    void aTransactionHandedOverAfterATickPassedItIsLetGoForThatTickReadItFromTheDatabase() {
        FreshFacts fresh = new FreshFacts();
        assertThat(fresh.take("20")).isSameAs(FreshFacts.Taken.NONE);
        assertThat(FreshFacts.Taken.NONE.transactionArray()).isEqualTo("{}");
        fresh.stored(19, List.of(finish("a", "late", 1)));
        fresh.stored(20, List.of(finish("a", "next", 2)));
        fresh.stored(21, List.of());
        assertThat(fresh.held()).isEqualTo(1);
        assertThat(fresh.take("10").transactions()).as("a horizon never moves back").isEmpty();
        assertThat(fresh.take("30").transactions()).containsExactly(20);
    }

    @Test
    void beyondTheBoundTheOldestTransactionsAreLetGoToBeReadFromTheDatabase() {
        FreshFacts fresh = new FreshFacts(3);
        fresh.stored(1, List.of(finish("a", "1", 1), finish("a", "2", 2)));
        fresh.stored(2, List.of(finish("a", "3", 3)));
        assertThat(fresh.held()).isEqualTo(3);
        fresh.stored(3, List.of(finish("a", "4", 4)));
        assertThat(fresh.held()).isEqualTo(2);
        fresh.stored(4, List.of(finish("a", "5", 5), finish("a", "6", 6), finish("a", "7", 7), finish("a", "8", 8)));
        assertThat(fresh.held()).as("one transaction larger than the bound is not held").isZero();

        fresh.stored(5, List.of(finish("a", "9", 9)));
        FreshFacts.Taken taken = fresh.take(Long.toString(Long.MAX_VALUE));
        assertThat(taken.transactions()).containsExactly(5);
        assertThat(fresh.take("0").transactions()).isEmpty();
    }

    @Test
    void aKeyStoredAgainKeepsTheLaterTransactionsFactWhichReplacedTheEarlierRow() {
        FreshFacts fresh = new FreshFacts();
        fresh.stored(1, List.of(start("a", "t", 500), finish("a", "u", 600)));
        fresh.stored(2, List.of(start("a", "t", 300)));
        assertThat(fresh.take("3").of("a")).extracting(LedgerFact::at).containsExactly(300L, 600L);
    }

    @Test
    void aTakenFactWhoseKeyIsReadWasReplacedByTheOneReadAndIsLeftOutOfTheMerge() throws Exception {
        FreshFacts fresh = new FreshFacts();
        fresh.stored(1, List.of(start("a", "mine", 100), start("a", "moved", 500), finish("a", "x", 700)));
        FreshFacts.Taken taken = fresh.take("9");
        List<LedgerFact> merged = new java.util.ArrayList<>();
        // another transaction stored an earlier start of "moved" (deleting this replica's row) and a fact of its own
        FreshFacts.Merged counts = taken.merge("a",
                sink -> List.of(start("a", "moved", 200), finish("a", "theirs", 600)).forEach(sink), merged::add);
        assertThat(merged).extracting(LedgerFact::at).containsExactly(100L, 200L, 600L, 700L);
        assertThat(counts).isEqualTo(new FreshFacts.Merged(2, 2));
        assertThat(taken.merge("b", sink -> {
        }, merged::add)).isEqualTo(new FreshFacts.Merged(0, 0));
    }

    private static LedgerFact start(String cluster, String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, task, TenantPath.parse("root.a"), "app",
                ResourceVector.of(1, 0, 0), at), "task:" + task + ":start");
    }

    private static LedgerFact finish(String cluster, String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, task, at), "task:" + task + ":finish");
    }
}
