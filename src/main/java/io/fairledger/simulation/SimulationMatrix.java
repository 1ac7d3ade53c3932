package io.fairledger.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.deadline.DeadlineGenerator;
import io.fairledger.core.deadline.DeadlineModel;
import io.fairledger.core.jobsim.JobSimulator;
import io.fairledger.core.jobsim.SimulationResult;

/**
 * Runs every admission policy x deadline model x capacity over one trace with the core {@link JobSimulator}, cells in
 * parallel on {@code threads} threads. Deadlines are drawn per (model, capacity) by {@link DeadlineGenerator} with the
 * run's seed, so every policy of a cell sees the same deadlines, and the same seed gives the same results whatever the
 * thread count (cells share nothing but the read-only trace).
 */
public final class SimulationMatrix {

    /** What to do with a finished cell (write its files); called from the worker threads, one call per cell. */
    public interface Sink {
        void accept(RunKey key, SimulationResult result, double seconds) throws Exception;
    }

    private final List<JobRequest> jobs;
    private final Map<String, double[]> taskSeconds;
    private final JobSimulator.ExecutionModel model;
    private final long seed;

    public SimulationMatrix(List<JobRequest> jobs, Map<String, double[]> taskSeconds,
            JobSimulator.ExecutionModel model, long seed) {
        this.jobs = List.copyOf(jobs);
        this.taskSeconds = Map.copyOf(taskSeconds);
        this.model = model;
        this.seed = seed;
    }

    /**
     * @param deadlineModels
     *            models to draw deadlines from; empty keeps the trace's deadlines (cell name {@code trace})
     * @param capacities
     *            cluster sizes
     * @param policies
     *            policy names
     * @param factory
     *            builds a fresh policy from its name and the capacity
     */
    public List<RunSummary> run(List<DeadlineModel> deadlineModels, List<Integer> capacities, List<String> policies,
            BiFunction<String, Integer, AdmissionPolicy> factory, int threads, ProgressBar progress, Sink sink)
            throws Exception {
        List<String> names = deadlineModels.isEmpty()
                ? List.of("trace")
                : deadlineModels.stream().map(DeadlineModel::name).toList();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads), r -> {
            Thread t = new Thread(r, "simulate");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<RunSummary>> futures = new ArrayList<>();
            for (int d = 0; d < names.size(); d++) {
                for (int capacity : capacities) {
                    List<JobRequest> trace = deadlineModels.isEmpty()
                            ? jobs
                            : new DeadlineGenerator(deadlineModels.get(d), seed).assign(jobs, capacity);
                    for (String policy : policies) {
                        RunKey key = new RunKey(names.get(d), capacity, policy);
                        futures.add(pool.submit(() -> runCell(key, trace, factory, progress, sink)));
                    }
                }
            }
            List<RunSummary> out = new ArrayList<>();
            for (Future<RunSummary> f : futures) {
                try {
                    out.add(f.get());
                } catch (ExecutionException e) {
                    pool.shutdownNow();
                    if (e.getCause() instanceof Exception ex) {
                        throw ex;
                    }
                    throw e;
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private RunSummary runCell(RunKey key, List<JobRequest> trace, BiFunction<String, Integer, AdmissionPolicy> factory,
            ProgressBar progress, Sink sink) throws Exception {
        long[] reported = {0};
        JobSimulator simulator = new JobSimulator(model, taskSeconds::get, done -> {
            progress.advance(done - reported[0]);
            reported[0] = done;
        });
        long start = System.nanoTime();
        SimulationResult result = simulator.run(trace, factory.apply(key.policy(), key.capacity()));
        double seconds = (System.nanoTime() - start) / 1e9;
        sink.accept(key, result, seconds);
        return new RunSummary(key, trace.size(), result.summary(), seconds);
    }
}
