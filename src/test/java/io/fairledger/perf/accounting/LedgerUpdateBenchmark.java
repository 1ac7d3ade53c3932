package io.fairledger.perf.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * Cost of one ledger event with 10,000 tenants (100 queues of 100 leaves, three levels with the root) and 100,000
 * running tasks: each invocation finishes one running task and starts it again one millisecond later in the same
 * tenant, so the number of running tasks stays at 100,000. Reported per event (two events per invocation). Default
 * configuration: ROUNDS of 24 h, PAR MAX, dominant share; with the time quantum on (Q0 = 5 s) or off.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LedgerUpdateBenchmark {

    private static final int QUEUES = 100;
    private static final int LEAVES_PER_QUEUE = 100;
    private static final int TASKS = 100_000;

    @Param({"0", "5000"})
    public long rootQuantumMs;

    private ClusterLedger ledger;
    private String[] taskIds;
    private TenantPath[] taskTenant;
    private ResourceVector[] taskSize;
    private long clock;
    private int next;

    @Setup
    public void setUp() {
        List<TenantConfig> tenants = new ArrayList<>();
        List<TenantPath> leaves = new ArrayList<>();
        for (int q = 0; q < QUEUES; q++) {
            tenants.add(TenantConfig.of("root.q" + q, 1 + q % 3));
            for (int l = 0; l < LEAVES_PER_QUEUE; l++) {
                TenantConfig leaf = TenantConfig.of("root.q" + q + ".l" + l, 1 + l % 4);
                tenants.add(leaf);
                leaves.add(leaf.path());
            }
        }
        ClusterConfig config = ClusterConfig.defaults("bench", 0, ResourceVector.of(200_000, 800_000_000L, 0), tenants)
                .withRootQuantum(rootQuantumMs);
        ledger = new ClusterLedger(config);
        taskIds = new String[TASKS];
        taskTenant = new TenantPath[TASKS];
        taskSize = new ResourceVector[TASKS];
        for (int i = 0; i < TASKS; i++) {
            taskIds[i] = "task-" + i;
            taskTenant[i] = leaves.get(i % leaves.size());
            taskSize[i] = ResourceVector.of(1 + i % 4, 1024L * (1 + i % 8), 0);
            ledger.apply(new LedgerEvent.TaskStarted("bench", taskIds[i], taskTenant[i], "app", taskSize[i], i / 10));
        }
        clock = TASKS;
        next = 0;
    }

    @Benchmark
    @OperationsPerInvocation(2)
    public Object finishAndRestartOneTask() {
        int i = next;
        next = (next + 1) % TASKS;
        clock++;
        ledger.apply(new LedgerEvent.TaskFinished("bench", taskIds[i], clock));
        return ledger.apply(new LedgerEvent.TaskStarted("bench", taskIds[i], taskTenant[i], "app", taskSize[i], clock));
    }
}
