package io.fairledger.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fairledger.core.admission.AdmissionPolicies;
import io.fairledger.core.admission.ErrorSmoothing;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.JusticeConfig;
import io.fairledger.core.admission.PriorityPolicy;
import io.fairledger.core.deadline.DeadlineModel;
import io.fairledger.core.jobsim.JobSimulator;
import io.fairledger.core.jobsim.Summary;
import io.fairledger.core.jobsim.SyntheticWorkload;
import io.fairledger.simulation.ProgressBar;
import io.fairledger.simulation.RunSummary;
import io.fairledger.simulation.SimulationFiles;
import io.fairledger.simulation.SimulationMatrix;
import io.fairledger.simulation.report.SummaryFiles;
import io.fairledger.simulation.trace.SwimReader;
import io.fairledger.simulation.trace.TraceFormat;
import io.fairledger.simulation.trace.TraceFormatException;
import io.fairledger.simulation.trace.TraceReader;
import io.fairledger.simulation.trace.Traces;

/**
 * {@code fairledger simulate}: runs admission policies over a job trace with the core {@link JobSimulator}. The trace
 * is the project's JSON Lines ({@code --jobs}, docs/domain.md section 11), a public trace
 * ({@code --trace F --format X}) or a seeded synthetic workload ({@code --synthetic N}). Every policy x deadline model
 * x capacity given is run; per cell {@code <out>/<policy>/jobs.csv} and {@code summary.json} (one deadline setting and
 * one capacity) or {@code <out>/<deadlines>/c<capacity>/<policy>/...}; over all cells {@code <out>/summary.csv}, the
 * figures in {@code <out>/plots/} (PNG and SVG) and {@code <out>/report.html}. {@code --tenant-experiment} runs the
 * LTRF vs MLRF experiment instead ({@link TenantExperimentRunner}). Exit codes: 0 done, 2 bad input or options (the
 * message names the file and line), 1 an I/O failure.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = {
        "Simulate deadline admission policies (Justice, PYTHIA, Oracle, Baseline and Reactive fair share) over a job trace,",
        "for every deadline model and capacity given, and write per-job CSVs, summaries, plots and an HTML report.",
        "JSON Lines input, one job a line, seconds: {\"id\":\"j1\",\"submit\":0.0,\"tasks\":10,\"compTime\":500.0,\"deadline\":100.0,\"tenant\":\"a\"}",
        "(deadline relative to submit; tenant and taskDurations optional; taskDurations feed --model waves)."})
public final class SimulateCommand implements Callable<Integer> {

    /** Exit code for bad input or options. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an I/O failure. */
    public static final int EXIT_IO = 1;

    @Spec
    private CommandSpec spec;

    @Option(names = "--jobs", paramLabel = "FILE", description = "Job trace, JSON Lines (the same as --trace FILE --format jsonl).")
    private Path jobsFile;

    @Option(names = "--trace", paramLabel = "FILE", description = "Trace file (plain or gzipped) in the --format given.")
    private Path traceFile;

    @Option(names = "--format", paramLabel = "FORMAT", description = "Trace format: sls-rumen, sls, google2011 (task_events), alibaba2017 (batch_task), swf, swim, jsonl. Conversions: docs/evaluation.md.")
    private String format;

    @Option(names = "--synthetic", paramLabel = "N", description = "Simulate N seeded synthetic jobs shaped like the Justice trace (60%% one-task, 70%% under 10 tasks, jobs over 1000 tasks hold most compute).")
    private Integer synthetic;

    @Option(names = "--synthetic-gap", defaultValue = "2.0", paramLabel = "S", description = "Synthetic: mean seconds between arrivals (Poisson). Default: ${DEFAULT-VALUE}.")
    private double syntheticGap;

    @Option(names = "--synthetic-task-seconds", defaultValue = "30.0", paramLabel = "S", description = "Synthetic: median task duration, log-normal with sigma 1. Default: ${DEFAULT-VALUE}.")
    private double syntheticTaskSeconds;

    @Option(names = "--synthetic-max-tasks", defaultValue = "5000", paramLabel = "T", description = "Synthetic: largest task count (at least 1001). Default: ${DEFAULT-VALUE}.")
    private int syntheticMaxTasks;

    @Option(names = "--synthetic-tenants", defaultValue = "4", paramLabel = "N", description = "Synthetic: number of tenants. Default: ${DEFAULT-VALUE}.")
    private int syntheticTenants;

    @Option(names = "--write-trace", paramLabel = "FILE", description = "Also write the jobs simulated (after conversion, before deadlines are drawn) as JSON Lines.")
    private Path writeTrace;

    @Option(names = "--policy", split = ",", paramLabel = "POLICY", defaultValue = "justice,pythia,oracle,baseline-fs,reactive-fs", description = "Policies to run, comma-separated, from: justice, pythia, oracle, baseline-fs, reactive-fs. Default: ${DEFAULT-VALUE}.")
    private List<String> policies;

    @Option(names = "--capacity", split = ",", paramLabel = "N", description = "Cluster capacity in CPUs (at least 1); several, comma-separated, run each.")
    private List<Integer> capacities;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of every random choice (deadline models, synthetic workload, tenant experiment). Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory.")
    private Path outDir;

    @Option(names = "--deadlines", split = ",", paramLabel = "MODEL", description = "Replace each job's deadline by x * T from a deadline model (Fixed1x, Fixed2x, Jockey1x2x, Jockey2x4x, 90loose, Aria1x3x, Aria2x4x, or all), T = compTime / min(tasks, capacity); several, comma-separated, run each. Required for traces without deadlines. Default: keep the trace's deadlines.")
    private List<String> deadlineModels;

    @Option(names = "--model", defaultValue = "perfect", paramLabel = "perfect|waves", description = "How a job with a fixed allocation runs: perfect parallelism (the papers'), or task waves when the trace gives task durations. Default: ${DEFAULT-VALUE}.")
    private String executionModel;

    @Option(names = "--threads", paramLabel = "N", description = "Cells simulated in parallel. Default: the number of processors.")
    private Integer threads;

    @Option(names = "--quiet", description = "No progress bar (it is also off when stderr is not a terminal).")
    private boolean quiet;

    @Option(names = "--no-report", description = "Skip summary plots and report.html.")
    private boolean noReport;

    @Option(names = "--swim-map-bytes", defaultValue = "67108864", paramLabel = "B", description = "SWIM: input bytes per map task. Default: ${DEFAULT-VALUE} (64 MiB).")
    private double swimMapBytes;

    @Option(names = "--swim-reduce-bytes", defaultValue = "1073741824", paramLabel = "B", description = "SWIM: shuffle bytes per reduce task. Default: ${DEFAULT-VALUE} (1 GiB).")
    private double swimReduceBytes;

    @Option(names = "--swim-bytes-per-cpu-second", defaultValue = "4194304", paramLabel = "B", description = "SWIM: bytes a task processes per second. Default: ${DEFAULT-VALUE} (4 MiB/s).")
    private double swimRate;

    @Option(names = "--swim-min-task-seconds", defaultValue = "1", paramLabel = "S", description = "SWIM: shortest task. Default: ${DEFAULT-VALUE}.")
    private double swimMinTask;

    @Option(names = "--google-max-priority", defaultValue = "11", paramLabel = "P", description = "Google 2011: keep jobs of priority at most P (8 keeps batch, drops production). Default: ${DEFAULT-VALUE} (all).")
    private int googleMaxPriority;

    @Option(names = "--smoothing", defaultValue = "equal", paramLabel = "equal|exponential", description = "Justice: how estimation errors are averaged, equal weights or exponential smoothing. Default: ${DEFAULT-VALUE}.")
    private String smoothing;

    @Option(names = "--alpha", defaultValue = "0.5", paramLabel = "A", description = "Justice: exponential smoothing factor in (0, 1], used with --smoothing exponential. Default: ${DEFAULT-VALUE}.")
    private double alpha;

    @Option(names = "--kill-above-tasks", paramLabel = "T", description = "Justice and PYTHIA: kill running jobs past their deadline whose task count exceeds T. Default: never kill.")
    private Integer killAboveTasks;

    @Option(names = "--priority", defaultValue = "req-per-ttd", paramLabel = "req-per-ttd|shortest-ttd", description = "Justice, PYTHIA and Oracle: queue order, reqCpus/TTD smallest first, or shortest time to deadline. Default: ${DEFAULT-VALUE}.")
    private String priority;

    @Option(names = "--bootstrap-jobs", defaultValue = "2", paramLabel = "K", description = "Justice and PYTHIA: completed jobs needed before estimates replace maxCPUs. Default: ${DEFAULT-VALUE}.")
    private int bootstrapJobs;

    @Option(names = "--rescan", description = "Use the papers' full rescan of the queue instead of the incremental index (same decisions, slower).")
    private boolean rescan;

    @picocli.CommandLine.ArgGroup(exclusive = false, heading = "LTRF vs MLRF tenant experiment:%n")
    private TenantExperimentRunner.Options tenantExperiment;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        if (tenantExperiment != null && tenantExperiment.enabled) {
            return TenantExperimentRunner.run(tenantExperiment, seed, outDir, out, err, !noReport);
        }
        Traces.Loaded trace;
        JusticeConfig config;
        List<DeadlineModel> models;
        JobSimulator.ExecutionModel model;
        Path input = jobsFile != null ? jobsFile : traceFile;
        try {
            int inputs = (jobsFile != null ? 1 : 0) + (traceFile != null ? 1 : 0) + (synthetic != null ? 1 : 0);
            if (inputs != 1) {
                throw new BadInputException("give exactly one of --jobs FILE, --trace FILE --format F, --synthetic N");
            }
            if (capacities == null || capacities.isEmpty()) {
                throw new BadInputException("--capacity is required");
            }
            for (int capacity : capacities) {
                if (capacity < 1) {
                    throw new BadInputException("--capacity must be at least 1 CPU, got " + capacity);
                }
            }
            for (String policy : policies) {
                if (!AdmissionPolicies.NAMES.contains(policy)) {
                    throw new BadInputException(
                            "unknown policy '" + policy + "', expected one of " + AdmissionPolicies.NAMES);
                }
            }
            model = switch (executionModel) {
                case "perfect" -> JobSimulator.ExecutionModel.PERFECT_PARALLELISM;
                case "waves" -> JobSimulator.ExecutionModel.TASK_WAVES;
                default -> throw new BadInputException("--model must be perfect or waves, got '" + executionModel
                        + "'");
            };
            config = justiceConfig();
            models = deadlineModels();
            trace = load(model);
            if (!trace.hasDeadlines() && models.isEmpty()) {
                throw new BadInputException((input == null ? "the synthetic workload" : input.toString())
                        + " has no deadlines: give --deadlines (for example Fixed2x, or all)");
            }
            if (!trace.stats().note().isEmpty() && trace.stats().skipped() > 0) {
                err.println("note: left out " + trace.stats().note());
            }
        } catch (BadInputException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (TraceFormatException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot read " + input + ": " + e.getMessage());
            return EXIT_IO;
        }
        try {
            return simulate(trace, config, models, model, out, err);
        } catch (IOException e) {
            err.println("error: cannot write to " + outDir + ": " + e.getMessage());
            return EXIT_IO;
        }
    }

    private Traces.Loaded load(JobSimulator.ExecutionModel model)
            throws BadInputException, IOException, TraceFormatException {
        if (synthetic != null) {
            SyntheticWorkload workload;
            try {
                workload = new SyntheticWorkload(synthetic, syntheticGap, syntheticTaskSeconds, syntheticMaxTasks,
                        syntheticTenants);
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--synthetic: " + e.getMessage());
            }
            return new Traces.Loaded(workload.generate(seed), Map.of(), false,
                    new TraceReader.ReadStats(synthetic, synthetic, 0, ""));
        }
        TraceFormat traceFormat;
        Path file;
        if (jobsFile != null) {
            if (format != null && !format.equals("jsonl")) {
                throw new BadInputException("--jobs is JSON Lines; use --trace FILE --format " + format);
            }
            traceFormat = TraceFormat.JSONL;
            file = jobsFile;
        } else {
            if (format == null) {
                throw new BadInputException("--trace needs --format, one of " + TraceFormat.names());
            }
            try {
                traceFormat = TraceFormat.named(format);
            } catch (IllegalArgumentException e) {
                throw new BadInputException("--format: " + e.getMessage());
            }
            file = traceFile;
        }
        SwimReader.Conversion swim;
        try {
            swim = new SwimReader.Conversion(swimMapBytes, swimReduceBytes, swimRate, swimMinTask);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        if (googleMaxPriority < 0 || googleMaxPriority > 11) {
            throw new BadInputException("--google-max-priority must be 0..11, got " + googleMaxPriority);
        }
        return Traces.load(file, traceFormat, Traces.reader(traceFormat, swim, googleMaxPriority),
                model == JobSimulator.ExecutionModel.TASK_WAVES);
    }

    private List<DeadlineModel> deadlineModels() throws BadInputException {
        if (deadlineModels == null || deadlineModels.isEmpty()) {
            return List.of();
        }
        if (deadlineModels.size() == 1 && deadlineModels.get(0).equalsIgnoreCase("all")) {
            return DeadlineModel.ALL;
        }
        List<DeadlineModel> out = new ArrayList<>();
        for (String name : deadlineModels) {
            out.add(namedModel(name));
        }
        return out;
    }

    private int simulate(Traces.Loaded trace, JusticeConfig config, List<DeadlineModel> models,
            JobSimulator.ExecutionModel model, PrintWriter out, PrintWriter err) throws IOException {
        List<JobRequest> jobs = trace.jobs();
        Files.createDirectories(outDir);
        if (writeTrace != null) {
            SimulationFiles.writeTrace(writeTrace, jobs, trace.taskSeconds());
        }
        boolean flat = models.size() <= 1 && capacities.size() == 1;
        double work = jobs.stream().mapToDouble(JobRequest::compTimeCpuSeconds).sum();
        long firstSubmit = jobs.stream().mapToLong(JobRequest::submitMillis).min().orElse(0);
        long lastSubmit = jobs.stream().mapToLong(JobRequest::submitMillis).max().orElse(0);
        String offered = String.format(
                "trace: %,d jobs, %,.0f CPU-seconds submitted over %,.0f s: offered load %,.1f CPUs on average",
                jobs.size(), work, (lastSubmit - firstSubmit) / 1000.0,
                lastSubmit > firstSubmit ? work * 1000.0 / (lastSubmit - firstSubmit) : Double.NaN);
        out.println(offered);
        int cells = Math.max(1, models.size()) * capacities.size() * policies.size();
        int workers = threads != null ? Math.max(1, threads) : Runtime.getRuntime().availableProcessors();
        ProgressBar progress = ProgressBar.onStderr(err, quiet, (long) jobs.size() * cells, "jobs");
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        long start = System.nanoTime();
        List<RunSummary> runs;
        try {
            runs = new SimulationMatrix(jobs, trace.taskSeconds(), model, seed).run(models, capacities, policies,
                    (name, capacity) -> AdmissionPolicies.create(name, capacity, config), workers, progress,
                    (key, result, secs) -> {
                        Path dir = flat
                                ? outDir.resolve(key.policy())
                                : outDir.resolve(key.deadlines()).resolve("c" + key.capacity()).resolve(key.policy());
                        Files.createDirectories(dir);
                        SimulationFiles.writeJobs(dir.resolve("jobs.csv"), result);
                        SimulationFiles.writeSummary(dir.resolve("summary.json"), result, key, jobs.size());
                    });
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("simulation failed: " + e.getMessage(), e);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        progress.finish();
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        for (RunSummary r : runs) {
            out.println((flat ? "" : "[" + r.key().deadlines() + " c=" + r.key().capacity() + "] ") + r.key().policy()
                    + ": " + format(r.summary()) + String.format(" (%.2f s)", r.seconds()));
        }
        String performance = String.format(
                "performance: %,d jobs x %d runs = %,d job simulations in %.2f s (%,.0f jobs/s), %d threads on %d processors, load average %.2f before, %.2f after",
                jobs.size(), cells, (long) jobs.size() * cells, seconds, jobs.size() * (double) cells / seconds,
                workers, Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter);
        out.println(performance);
        SummaryFiles.writeCsv(outDir.resolve("summary.csv"), runs);
        if (!noReport) {
            String source = synthetic != null
                    ? "synthetic workload of " + synthetic + " jobs, seed " + seed
                    : (jobsFile != null ? jobsFile : traceFile) + " (" + (format == null ? "jsonl" : format) + ")";
            SummaryFiles.writeReport(outDir, "fairledger simulate: " + source, runs, policies,
                    models.isEmpty() ? List.of("trace") : models.stream().map(DeadlineModel::name).toList(),
                    capacities, List.of(source, offered, "execution model: " + executionModel + ", seed " + seed,
                            trace.stats().skipped() > 0 ? "left out: " + trace.stats().note() : "", performance));
        }
        return 0;
    }

    private JusticeConfig justiceConfig() throws BadInputException {
        try {
            ErrorSmoothing errorSmoothing = ErrorSmoothing.named(smoothing, alpha);
            if (killAboveTasks != null && killAboveTasks < 0) {
                throw new BadInputException("--kill-above-tasks must be >= 0, got " + killAboveTasks);
            }
            return new JusticeConfig(errorSmoothing, killAboveTasks == null ? JusticeConfig.NEVER_KILL : killAboveTasks,
                    PriorityPolicy.named(priority), bootstrapJobs, !rescan);
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
    }

    private static DeadlineModel namedModel(String name) throws BadInputException {
        try {
            return DeadlineModel.named(name);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("--deadlines: " + e.getMessage());
        }
    }

    private static String format(Summary s) {
        return String.format("SDR=%.4f PTR=%.4f WTR=%.4f utilization=%.4f fairness=%.4f equality=%.4f", s.sdr(),
                s.ptr(), s.wtr(), s.utilization(), s.fairness(), s.equality());
    }

    /** A problem with the input or the options, reported with exit code 2. */
    static final class BadInputException extends Exception {
        private static final long serialVersionUID = 1L;

        BadInputException(String message) {
            super(message);
        }
    }

    /** Runs the command on its own (the launcher normally registers it as a subcommand). */
    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulateCommand()).execute(args));
    }
}
