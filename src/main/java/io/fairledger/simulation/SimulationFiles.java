package io.fairledger.simulation;

import java.io.BufferedWriter;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.jobsim.JobOutcome;
import io.fairledger.core.jobsim.SimulationResult;
import io.fairledger.core.jobsim.Summary;

/**
 * The files a simulation writes (docs/evaluation.md): the trace it ran, per-job CSVs and per-run summaries. Times are
 * written in seconds with exactly the milliseconds the simulation kept (no rounding), so two runs with identical
 * decisions write identical files.
 */
public final class SimulationFiles {

    private SimulationFiles() {
    }

    /** The jobs as JSON Lines, one job a line in seconds, the format {@code --jobs} reads back. */
    public static void writeTrace(Path file, List<JobRequest> jobs, Map<String, double[]> taskSeconds)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (JobRequest j : jobs) {
                Map<String, Object> json = new LinkedHashMap<>();
                json.put("id", j.id());
                json.put("submit", j.submitMillis() / 1000.0);
                json.put("tasks", j.tasks());
                json.put("compTime", j.compTimeCpuSeconds());
                json.put("deadline", j.deadlineMillis() / 1000.0);
                json.put("tenant", j.tenant());
                if (taskSeconds.containsKey(j.id())) {
                    json.put("taskDurations", taskSeconds.get(j.id()));
                }
                w.write(mapper.writeValueAsString(json));
                w.write('\n');
            }
        }
    }

    /** Per-job CSV: id, outcome, CPUs, admit, finish and queued times (seconds), CPU-seconds consumed. */
    public static void writeJobs(Path file, SimulationResult result) throws IOException {
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

    /** The run's summary metrics (SDR, PTR, WTR, utilization, fairness, equality) as JSON. */
    public static void writeSummary(Path file, SimulationResult result, RunKey key, int jobCount)
            throws IOException {
        Summary s = result.summary();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("policy", result.policy());
        json.put("capacity", key.capacity());
        json.put("deadlines", key.deadlines());
        json.put("jobs", jobCount);
        json.put("SDR", s.sdr());
        json.put("PTR", s.ptr());
        json.put("WTR", s.wtr());
        json.put("utilization", s.utilization());
        json.put("fairness", s.fairness());
        json.put("equality", s.equality());
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), json);
    }
}
