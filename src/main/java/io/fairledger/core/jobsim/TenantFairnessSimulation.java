package io.fairledger.core.jobsim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.grant.GrantPolicy;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.MemorylessMaxMin;
import io.fairledger.core.grant.TreeGrants;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * Tenants sharing a cluster of one-CPU slots under LTRF or MLRF grants, with demand that shifts between tenants, so
 * that rho, Omega and Psi (LTRF eqs. 3-5, Tang et al., 2014, Fig. 5) can be watched over time. Everything is the core:
 * the {@link ClusterLedger} integrates usage and demand exactly, {@link LongTermMaxMin} (LTRF) or
 * {@link MemorylessMaxMin} (MLRF) computes grants from the ledger's scheduling values
 * ({@link TreeGrants#tree}), {@link FairnessReport#ofPeriod} gives rho, Psi and Omega.
 *
 * <p>
 * Model. Tasks are not preempted (as in YARN and Mesos without preemption): a slot, once given, is held until the task
 * ends. At every event (task end, phase start) the grants are recomputed and free slots go, one at a time, to the
 * tenant with pending tasks whose grant exceeds what it holds by most (ties: tenant order). Demand shifts by phases:
 * tenant {@code t0} is steady, submitting {@code steadyIntensity x capacity x phase} CPU-seconds of tasks at every
 * phase start, enough to keep the cluster busy alone; the others are bursty: at the start of every even phase
 * {@code k} tenant {@code 1 + (k / 2) mod (n - 1)} submits {@code intensity x capacity x phase}. Tasks have exponential
 * durations; unfinished tasks stay pending. A bursty tenant thus arrives at a cluster held by the steady tenant's
 * tasks and, without preemption, reaches its share only as they end: the sharing loss LTRF is designed to pay back. Task durations are drawn once from the seed, so LTRF and MLRF see the same tasks. Every tenant weighs 1.
 *
 * @param tenants
 *            number of tenants, at least 2
 * @param capacity
 *            CPUs (slots), at least 1
 * @param phaseSeconds
 *            length of a demand phase
 * @param phases
 *            number of phases
 * @param meanTaskSeconds
 *            mean task duration
 * @param steadyIntensity
 *            work the steady tenant brings per phase, as a fraction of the cluster's capacity over the phase
 * @param intensity
 *            work a bursty tenant brings per burst, same unit
 * @param memory
 *            the ledger's memory mode (what LTRF grants remember)
 * @param sampleSeconds
 *            how often rho, Omega and Psi are sampled
 */
public record TenantFairnessSimulation(int tenants, int capacity, double phaseSeconds, int phases,
        double meanTaskSeconds, double steadyIntensity, double intensity, MemoryMode memory, double sampleSeconds) {

    /** The grant policies compared. */
    public enum Policy {
        /** Long-term max-min ({@link LongTermMaxMin}). */
        LTRF,
        /** Memoryless max-min ({@link MemorylessMaxMin}), YARN and Mesos today. */
        MLRF
    }

    /**
     * Samples over time.
     *
     * @param seconds
     *            sample instants since the start
     * @param rho
     *            tenant name to its fairness degree at each sample (NaN before it has any entitlement)
     * @param omega
     *            sharing loss at each sample
     * @param psi
     *            sharing benefit at each sample
     * @param utilization
     *            fraction of slots busy at each sample
     */
    public record Series(Policy policy, double[] seconds, Map<String, double[]> rho, double[] omega, double[] psi,
            double[] utilization) {
    }

    private static final String CLUSTER = "sim";
    private static final long MILLICORES_PER_TASK = 1000;
    private static final long MB_PER_TASK = 1024;

    public TenantFairnessSimulation {
        if (tenants < 2 || capacity < 1 || phases < 1) {
            throw new IllegalArgumentException("need at least 2 tenants, 1 CPU and 1 phase");
        }
        if (!(phaseSeconds > 0) || !(meanTaskSeconds > 0) || !(intensity > 0) || !(steadyIntensity > 0)
                || !(sampleSeconds > 0)) {
            throw new IllegalArgumentException("phase, task duration, intensity and sample period must be > 0");
        }
    }

    /** Runs {@code policy}; the same seed gives the same tasks for every policy. */
    public Series run(Policy policy, long seed) {
        List<String> names = new ArrayList<>();
        List<TenantConfig> configs = new ArrayList<>();
        for (int i = 0; i < tenants; i++) {
            names.add("t" + i);
            configs.add(TenantConfig.of("t" + i, 1.0));
        }
        ClusterLedger ledger = new ClusterLedger(
                ClusterConfig.defaults(CLUSTER, 0, ResourceVector.of(capacity, capacity * MB_PER_TASK, 0), configs)
                        .withMemory(memory));
        GrantPolicy grants = policy == Policy.LTRF ? new LongTermMaxMin() : new MemorylessMaxMin();
        List<List<Double>> batches = tasks(seed);
        long phaseMillis = Math.round(phaseSeconds * 1000);
        long sampleMillis = Math.round(sampleSeconds * 1000);
        long end = phaseMillis * phases;
        List<ArrayDeque<Double>> pending = new ArrayList<>();
        int[] held = new int[tenants];
        for (int i = 0; i < tenants; i++) {
            pending.add(new ArrayDeque<>());
        }
        record Running(long endMillis, int tenant, String id) {
        }
        PriorityQueue<Running> running = new PriorityQueue<>(
                Comparator.comparingLong(Running::endMillis).thenComparing(Running::id));
        int samples = (int) (end / sampleMillis) + 1;
        double[] seconds = new double[samples];
        double[] omega = new double[samples];
        double[] psi = new double[samples];
        double[] util = new double[samples];
        Map<String, double[]> rho = new LinkedHashMap<>();
        for (String n : names) {
            rho.put(n, new double[samples]);
        }
        int nextSample = 0;
        int nextPhase = 0;
        long taskCounter = 0;
        while (true) {
            long nextPhaseMillis = nextPhase < phases ? nextPhase * phaseMillis : Long.MAX_VALUE;
            long nextEnd = running.isEmpty() ? Long.MAX_VALUE : running.peek().endMillis();
            long now = Math.min(nextPhaseMillis, nextEnd);
            while (nextSample < samples && (long) nextSample * sampleMillis <= Math.min(now, end)) {
                long at = (long) nextSample * sampleMillis;
                FairnessReport report = FairnessReport.ofPeriod(leaves(ledger.accounts(at)));
                seconds[nextSample] = at / 1000.0;
                omega[nextSample] = report.sharingLoss();
                psi[nextSample] = report.sharingBenefit();
                util[nextSample] = (double) running.size() / capacity;
                for (String n : names) {
                    var degree = report.degrees().get(TenantPath.parse(n).toString());
                    rho.get(n)[nextSample] = degree == null || degree.noEntitlement() ? Double.NaN : degree.value();
                }
                nextSample++;
            }
            if (now == Long.MAX_VALUE || now > end) {
                break;
            }
            boolean[] demandChanged = new boolean[tenants];
            while (!running.isEmpty() && running.peek().endMillis() == now) {
                Running r = running.poll();
                held[r.tenant()]--;
                ledger.apply(new LedgerEvent.TaskFinished(CLUSTER, r.id(), now));
            }
            if (now == nextPhaseMillis) {
                pending.get(0).addAll(batches.get(2 * nextPhase));
                demandChanged[0] = true;
                if (nextPhase % 2 == 0) {
                    int bursty = 1 + (nextPhase / 2) % (tenants - 1);
                    pending.get(bursty).addAll(batches.get(2 * nextPhase + 1));
                    demandChanged[bursty] = true;
                }
                nextPhase++;
            }
            int free = capacity - running.size();
            if (free > 0) {
                for (int i = 0; i < tenants; i++) {
                    if (demandChanged[i]) {
                        ledger.apply(pendingEvent(names.get(i), pending.get(i).size(), now));
                        demandChanged[i] = false;
                    }
                }
                Map<TenantPath, double[]> grant = TreeGrants.tree(ledger, now, 10_000, grants);
                double[] deficit = new double[tenants];
                for (int i = 0; i < tenants; i++) {
                    deficit[i] = grant.get(TenantPath.parse(names.get(i)))[0] / MILLICORES_PER_TASK - held[i];
                }
                while (free > 0) {
                    int best = -1;
                    for (int i = 0; i < tenants; i++) {
                        if (!pending.get(i).isEmpty() && (best < 0 || deficit[i] > deficit[best])) {
                            best = i;
                        }
                    }
                    if (best < 0) {
                        break;
                    }
                    double duration = pending.get(best).poll();
                    String id = "task-" + taskCounter++;
                    long taskEnd = now + Math.max(1, Math.round(duration * 1000));
                    running.add(new Running(taskEnd, best, id));
                    held[best]++;
                    deficit[best]--;
                    free--;
                    demandChanged[best] = true;
                    ledger.apply(new LedgerEvent.TaskStarted(CLUSTER, id, TenantPath.parse(names.get(best)),
                            names.get(best), ResourceVector.ofMillicores(MILLICORES_PER_TASK, MB_PER_TASK, 0), now));
                }
            }
            for (int i = 0; i < tenants; i++) {
                if (demandChanged[i]) {
                    ledger.apply(pendingEvent(names.get(i), pending.get(i).size(), now));
                }
            }
        }
        return new Series(policy, seconds, rho, omega, psi, util);
    }

    private static LedgerEvent pendingEvent(String tenant, int tasks, long now) {
        return new LedgerEvent.DemandChanged(CLUSTER, TenantPath.parse(tenant),
                ResourceVector.ofMillicores(tasks * MILLICORES_PER_TASK, tasks * MB_PER_TASK, 0), now);
    }

    private static List<TenantAccount> leaves(List<TenantAccount> accounts) {
        return accounts.stream().filter(a -> a.path().depth() == 1).toList();
    }

    /** Two batches per phase: the steady tenant's, then the bursty one's (drawn even when unused). */
    private List<List<Double>> tasks(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<Double>> out = new ArrayList<>();
        for (int k = 0; k < 2 * phases; k++) {
            double work = (k % 2 == 0 ? steadyIntensity : intensity) * capacity * phaseSeconds;
            List<Double> batch = new ArrayList<>();
            double sum = 0;
            while (sum < work) {
                double d = -meanTaskSeconds * Math.log(1 - random.nextDouble());
                batch.add(d);
                sum += d;
            }
            out.add(batch);
        }
        return out;
    }
}
