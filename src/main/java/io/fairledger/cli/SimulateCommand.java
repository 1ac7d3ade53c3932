package io.fairledger.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.BaselineFairShare;
import io.fairledger.core.admission.ErrorSmoothing;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.JusticeConfig;
import io.fairledger.core.admission.Oracle;
import io.fairledger.core.admission.PriorityPolicy;
import io.fairledger.core.admission.Pythia;
import io.fairledger.core.admission.ReactiveFairShare;
import io.fairledger.core.deadline.DeadlineGenerator;
import io.fairledger.core.deadline.DeadlineModel;
import io.fairledger.core.jobsim.JobOutcome;
import io.fairledger.core.jobsim.JobSimulator;
import io.fairledger.core.jobsim.SimulationResult;
import io.fairledger.core.jobsim.Summary;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fairledger simulate}: runs admission policies over a JSON Lines job trace (DOMAIN.md section 11) with the
 * {@link JobSimulator} and writes, per policy, {@code <out>/<policy>/jobs.csv} and {@code <out>/<policy>/summary.json}.
 * Exit codes: 0 done, 2 bad input or options (the message names the file and line), 1 an I/O failure.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, description = {
        "Simulate deadline admission policies (Justice, PYTHIA, Oracle, Baseline and Reactive fair share) over a JSON Lines job trace.",
        "Input, one job a line, seconds: {\"id\":\"j1\",\"submit\":0.0,\"tasks\":10,\"compTime\":500.0,\"deadline\":100.0,\"tenant\":\"a\"}",
        "(deadline relative to submit; tenant and taskDurations optional, taskDurations is accepted and not used)."})
public final class SimulateCommand implements Callable<Integer> {

    /** Exit code for bad input or options. */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an I/O failure. */
    public static final int EXIT_IO = 1;

    private static final List<String> POLICIES = List.of("justice", "pythia", "oracle", "baseline-fs",
            "reactive-fs");

    @Spec
    private CommandSpec spec;

    @Option(names = "--jobs", required = true, paramLabel = "FILE", description = "Job trace, JSON Lines.")
    private Path jobsFile;

    @Option(names = "--policy", split = ",", paramLabel = "POLICY", defaultValue = "justice,pythia,oracle,baseline-fs,reactive-fs", description = "Policies to run, comma-separated, from: justice, pythia, oracle, baseline-fs, reactive-fs. Default: ${DEFAULT-VALUE}.")
    private List<String> policies;

    @Option(names = "--capacity", required = true, paramLabel = "N", description = "Cluster capacity in CPUs (at least 1).")
    private int capacity;

    @Option(names = "--seed", defaultValue = "1", paramLabel = "S", description = "Seed of every random choice (here: the deadline model). Default: ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--out", required = true, paramLabel = "DIR", description = "Output directory; one subdirectory per policy.")
    private Path outDir;

    @Option(names = "--deadlines", paramLabel = "MODEL", description = "Replace each job's deadline by x * T from a deadline model (Fixed1x, Fixed2x, Jockey1x2x, Jockey2x4x, 90loose, Aria1x3x, Aria2x4x), T = compTime / min(tasks, capacity). Default: keep the trace's deadlines.")
    private String deadlineModel;

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

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        List<JobRequest> jobs;
        JusticeConfig config;
        try {
            if (capacity < 1) {
                throw new BadInputException("--capacity must be at least 1 CPU, got " + capacity);
            }
            for (String policy : policies) {
                if (!POLICIES.contains(policy)) {
                    throw new BadInputException("unknown policy '" + policy + "', expected one of " + POLICIES);
                }
            }
            config = justiceConfig();
            jobs = readJobs(jobsFile);
            if (deadlineModel != null) {
                jobs = new DeadlineGenerator(namedModel(deadlineModel), seed).assign(jobs, capacity);
            }
        } catch (BadInputException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot read " + jobsFile + ": " + e.getMessage());
            return EXIT_IO;
        }
        try {
            for (String name : policies) {
                SimulationResult result = new JobSimulator().run(jobs, policy(name, config));
                Path dir = outDir.resolve(name);
                Files.createDirectories(dir);
                writeJobs(dir.resolve("jobs.csv"), result);
                writeSummary(dir.resolve("summary.json"), result, jobs.size());
                spec.commandLine().getOut().println(name + ": " + format(result.summary()));
            }
        } catch (IOException e) {
            err.println("error: cannot write to " + outDir + ": " + e.getMessage());
            return EXIT_IO;
        }
        return 0;
    }

    private JusticeConfig justiceConfig() throws BadInputException {
        ErrorSmoothing errorSmoothing;
        try {
            errorSmoothing = switch (smoothing) {
                case "equal" -> new ErrorSmoothing.EqualWeights();
                case "exponential" -> new ErrorSmoothing.Exponential(alpha);
                default -> throw new BadInputException(
                        "--smoothing must be equal or exponential, got '" + smoothing + "'");
            };
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

    private AdmissionPolicy policy(String name, JusticeConfig config) {
        return switch (name) {
            case "justice" -> new Justice(capacity, config);
            case "pythia" -> new Pythia(capacity, config);
            case "oracle" -> new Oracle(capacity, config.priority(), config.indexed());
            case "baseline-fs" -> new BaselineFairShare(capacity);
            case "reactive-fs" -> new ReactiveFairShare(capacity);
            default -> throw new IllegalStateException("unchecked policy " + name);
        };
    }

    /** Reads and validates the trace; a problem names the file and the line. */
    static List<JobRequest> readJobs(Path file) throws IOException, BadInputException {
        ObjectMapper mapper = new ObjectMapper();
        List<JobRequest> jobs = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String where = file + " line " + (i + 1) + ": ";
            try {
                JobRequest job = parseJob(mapper.readTree(line));
                if (!ids.add(job.id())) {
                    throw new BadInputException("duplicate job id '" + job.id() + "'");
                }
                jobs.add(job);
            } catch (JsonProcessingException e) {
                throw new BadInputException(where + "malformed JSON: " + e.getOriginalMessage());
            } catch (BadInputException | IllegalArgumentException e) {
                throw new BadInputException(where + e.getMessage());
            }
        }
        return jobs;
    }

    private static JobRequest parseJob(JsonNode node) throws BadInputException {
        if (node == null || !node.isObject()) {
            throw new BadInputException("expected a JSON object");
        }
        JsonNode id = node.get("id");
        if (id == null || !id.isTextual() || id.asText().isBlank()) {
            throw new BadInputException("'id' must be a non-empty string");
        }
        double submit = number(node, "submit");
        JsonNode tasks = node.get("tasks");
        if (tasks == null || !tasks.canConvertToExactIntegral() || !tasks.canConvertToInt()) {
            throw new BadInputException("'tasks' must be an integer");
        }
        if (tasks.asInt() < 1) {
            throw new BadInputException("'tasks' must be >= 1, got " + tasks.asInt());
        }
        double compTime = number(node, "compTime");
        double deadline = number(node, "deadline");
        if (submit < 0) {
            throw new BadInputException("'submit' must be >= 0, got " + submit);
        }
        if (compTime < 0) {
            throw new BadInputException("'compTime' must be >= 0, got " + compTime);
        }
        long deadlineMillis = Math.round(deadline * 1000);
        if (deadlineMillis < 1) {
            throw new BadInputException("'deadline' must be at least 0.001 s, got " + deadline);
        }
        JsonNode tenant = node.get("tenant");
        if (tenant != null && !tenant.isNull() && !tenant.isTextual()) {
            throw new BadInputException("'tenant' must be a string");
        }
        JsonNode durations = node.get("taskDurations");
        if (durations != null && !durations.isNull()) {
            if (!durations.isArray()) {
                throw new BadInputException("'taskDurations' must be an array of numbers");
            }
            for (JsonNode d : durations) {
                if (!d.isNumber() || d.asDouble() < 0) {
                    throw new BadInputException("'taskDurations' must hold numbers >= 0");
                }
            }
        }
        return new JobRequest(id.asText(), Math.round(submit * 1000), tasks.asInt(), deadlineMillis, compTime,
                tenant == null || tenant.isNull() ? "" : tenant.asText());
    }

    private static double number(JsonNode node, String field) throws BadInputException {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new BadInputException("'" + field + "' is missing");
        }
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw new BadInputException("'" + field + "' must be a number, got " + value);
        }
        return value.asDouble();
    }

    private static void writeJobs(Path file, SimulationResult result) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("id,outcome,cpus,admitTime,finishTime,queuedTime,consumedCpuSeconds\n");
            for (JobOutcome job : result.jobs()) {
                out.write(csv(job.id()) + "," + job.outcome() + "," + job.cpus() + ","
                        + (job.admitMillis() < 0 ? "" : seconds(job.admitMillis())) + ","
                        + seconds(job.finishMillis()) + "," + seconds(job.queuedMillis()) + ","
                        + BigDecimal.valueOf(job.consumedCpuSeconds()).stripTrailingZeros().toPlainString() + "\n");
            }
        }
    }

    private static String csv(String value) {
        if (value.contains(",") || value.contains("\"") || value.contains("\n")) {
            return "\"" + value.replace("\"", "\"\"") + "\"";
        }
        return value;
    }

    private static String seconds(long millis) {
        return BigDecimal.valueOf(millis, 3).stripTrailingZeros().toPlainString();
    }

    private void writeSummary(Path file, SimulationResult result, int jobCount) throws IOException {
        Summary s = result.summary();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("policy", result.policy());
        json.put("capacity", capacity);
        json.put("jobs", jobCount);
        json.put("SDR", s.sdr());
        json.put("PTR", s.ptr());
        json.put("WTR", s.wtr());
        json.put("utilization", s.utilization());
        json.put("fairness", s.fairness());
        json.put("equality", s.equality());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
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
