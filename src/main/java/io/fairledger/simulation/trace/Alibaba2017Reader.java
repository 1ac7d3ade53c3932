package io.fairledger.simulation.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Alibaba cluster-trace-v2017 {@code batch_task.csv}: {@code task_create_time, task_end_time, job_id, task_id,
 * number_of_instances, status, cpus_per_instance (100 = 1 core), memory}; an optional header line is skipped.
 *
 * <p>
 * Conversion, per job (its rows need not be adjacent): a row counts when its status is {@code Terminated} and
 * {@code end >= create}; tasks are the sum of counted {@code number_of_instances}; submit the earliest counted
 * {@code task_create_time}; every instance of a row lasts {@code end - create} (the trace has no per-instance times,
 * so instances that ran in waves are over-estimated: compTime is an upper bound, as the data's SOURCE.md says);
 * compTime the sum over instances. Jobs with no counted row are skipped and reported. Tenant: none (the 2017 batch
 * table has no user). No deadlines.
 */
public final class Alibaba2017Reader implements TraceReader {

    private static final class Job {
        double submit = Double.POSITIVE_INFINITY;
        int tasks;
        double comp;
        double[] durations = new double[4];
        boolean counted;
    }

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        Map<String, Job> jobs = new LinkedHashMap<>();
        long lineNo = 0;
        long rowsSkipped = 0;
        try (BufferedReader in = TraceFiles.lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = TraceFiles.csv(line);
                if (lineNo == 1 && !f[0].isBlank() && !Character.isDigit(f[0].strip().charAt(0))
                        && f[0].strip().charAt(0) != '-') {
                    continue;
                }
                if (f.length < 6) {
                    throw new TraceFormatException(file, lineNo,
                            "expected 8 comma-separated batch_task columns, got " + f.length);
                }
                String jobId = f[2].strip();
                if (jobId.isEmpty()) {
                    throw new TraceFormatException(file, lineNo, "column 3 (job_id) is missing");
                }
                Job job = jobs.computeIfAbsent(jobId, k -> new Job());
                if (!"Terminated".equals(f[5].strip()) || f[0].isBlank() || f[1].isBlank()) {
                    rowsSkipped++;
                    continue;
                }
                double create = TraceFiles.number(file, lineNo, f, 0, "task_create_time");
                double end = TraceFiles.number(file, lineNo, f, 1, "task_end_time");
                long instances = TraceFiles.integer(file, lineNo, f, 4, "number_of_instances");
                if (end < create || instances < 1) {
                    rowsSkipped++;
                    continue;
                }
                if (job.tasks + instances > Integer.MAX_VALUE / 2) {
                    throw new TraceFormatException(file, lineNo, "job " + jobId + " has too many instances");
                }
                job.counted = true;
                job.submit = Math.min(job.submit, create);
                if (job.tasks + instances > job.durations.length) {
                    job.durations = java.util.Arrays.copyOf(job.durations,
                            (int) Math.max(job.durations.length * 2L, job.tasks + instances));
                }
                java.util.Arrays.fill(job.durations, job.tasks, (int) (job.tasks + instances), end - create);
                job.tasks += (int) instances;
                job.comp += instances * (end - create);
            }
        }
        long emitted = 0;
        long skipped = 0;
        for (Map.Entry<String, Job> e : jobs.entrySet()) {
            Job job = e.getValue();
            if (!job.counted) {
                skipped++;
                continue;
            }
            sink.accept(new TraceJob(e.getKey(), job.submit, job.tasks, job.comp, Double.NaN, "",
                    java.util.Arrays.copyOf(job.durations, job.tasks)));
            emitted++;
        }
        return new ReadStats(lineNo, emitted, skipped, skipped + " jobs with no Terminated task (" + rowsSkipped
                + " rows not Terminated or with end before create)");
    }
}
