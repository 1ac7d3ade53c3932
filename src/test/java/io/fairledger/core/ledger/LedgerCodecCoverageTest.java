package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.fairledger.core.replay.Replay;

/**
 * Every field of the ledger's state classes is one {@link LedgerSnapshot} carries into {@link LedgerState} (which
 * {@link LedgerCodec} and {@code core.replay.Checkpoint} write) or one derived from the configuration. A field added to
 * one of these classes fails here until the snapshot carries it (and {@code Checkpoint.FORMAT} is raised): the
 * equivalence properties ({@code CheckpointTest}, {@link LedgerStateTest}) catch a forgotten field only when their
 * random streams happen to make it matter.
 */
class LedgerCodecCoverageTest {

    /** The instance fields of each state class, as the codec knows them. */
    private static final Map<Class<?>, String> KNOWN = Map.ofEntries(
            // releasedThrough is not written: a restored replay holds what it closes until the server's next release
            Map.entry(Replay.class, "config ledger closedPeriods statements fairness open releasedThrough"),
            // configHeld is not written: a restored ledger visits every tenant at its first reconfigure (the values
            // each gets are the same; the flag only lets later ones visit fewer)
            Map.entry(ClusterLedger.class,
                    "config configHeld tree integrals holdings tasks quanta outcomes root capacity clock"),
            Map.entry(TenantTree.class, "nodes ordered"),
            Map.entry(TenantNode.class,
                    "index path parent children childGroup weight discountOverride pricePlan share eta held ownPending "
                            + "pendingByApplication pending runningTasks g countedRate d e b u acc youngCount youngSize "
                            + "youngSizeTimesEnd quantumMs quantumSum quantumMembers quantumDirty lastApps"),
            Map.entry(Accumulators.class,
                    "last actual counted entitled demand borrowedRaw lent borrowedFromSiblings resourceMs kLendSeen "
                            + "kBorrowSeen memActual memCounted memEntitled phi round roundEnd arrived arrivalAt uncountedResourceMs"),
            Map.entry(SiblingGroup.class, "borrowedSum unusedSum last kLend kBorrow updatesSinceRecompute"),
            Map.entry(Int128.class, "hi lo"),
            Map.entry(NodeIntegrals.class, "memory registeredAt"),
            Map.entry(PathHoldings.class, "measure earlyBird"),
            Map.entry(EarlyBirdTopUp.class, "integrals par"),
            Map.entry(TimeQuanta.class, "config quantum young nextRefresh"),
            Map.entry(AdaptiveQuantum.class, "apps dirtyApps dirtyByDepth"),
            Map.entry(AdaptiveQuantum.App.class, "tenant id quantumMs completed completedMs dirty"),
            Map.entry(QuantumExpiry.class, "later current currentBucket"),
            Map.entry(RunningTask.class, "taskId tenant app resources start size quantumEnd young"));

    @Test
    void everyFieldOfTheLedgerStateIsKnownToTheCheckpointCodec() {
        for (Map.Entry<Class<?>, String> e : KNOWN.entrySet()) {
            Set<String> actual = Arrays.stream(e.getKey().getDeclaredFields())
                    .filter(f -> !Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()).map(Field::getName)
                    .collect(Collectors.toCollection(TreeSet::new));
            assertThat(actual).as("fields of %s: a new one must be carried into LedgerState by LedgerSnapshot",
                    e.getKey().getSimpleName()).isEqualTo(new TreeSet<>(Arrays.asList(e.getValue().split(" "))));
        }
    }
}
