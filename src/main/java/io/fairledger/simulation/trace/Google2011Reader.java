package io.fairledger.simulation.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Google cluster-usage trace 2011 (clusterdata-2011-2), a {@code task_events} file (gzipped or plain CSV, no header):
 * {@code timestamp(us), missingInfo, jobID, taskIndex, machineID, eventType, user, schedulingClass, priority, ...}.
 *
 * <p>
 * Conversion, per job: submit is its first SUBMIT (event 0) event, or its first event of any kind; a task counts when
 * a SCHEDULE (1) is followed by a FINISH (4) in the file, its duration {@code FINISH - SCHEDULE}; tasks are those
 * counted and compTime the sum of their durations (task-slot seconds: one task is one CPU of the papers' model, the
 * normalised cpuRequest is not used). Runs ended by EVICT, FAIL, KILL or LOST are not counted. Jobs with no counted
 * task (still running at the end of the file, or every run failed) are skipped and reported. Tenant: the hashed user.
 * With {@code maxPriority} below 11, jobs whose first event has a higher priority (production and monitoring, 9 and
 * above) are skipped. Memory: one entry per job and per task running, never the file. No deadlines.
 */
public final class Google2011Reader implements TraceReader {

    private final int maxPriority;

    /** @param maxPriority the highest task priority kept, 0..11; 11 keeps every job */
    public Google2011Reader(int maxPriority) {
        this.maxPriority = maxPriority;
    }

    private static final class Job {
        final long firstMicros;
        long submitMicros = -1;
        final String user;
        final boolean kept;
        final Map<Long, Long> scheduled = new HashMap<>();
        double[] durations = new double[4];
        int count;

        Job(long firstMicros, String user, boolean kept) {
            this.firstMicros = firstMicros;
            this.user = user;
            this.kept = kept;
        }

        void add(double seconds) {
            if (count == durations.length) {
                durations = java.util.Arrays.copyOf(durations, count * 2);
            }
            durations[count++] = seconds;
        }
    }

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        Map<Long, Job> jobs = new LinkedHashMap<>();
        long lineNo = 0;
        try (BufferedReader in = TraceFiles.lines(file)) {
            String line;
            while ((line = in.readLine()) != null) {
                lineNo++;
                if (line.isBlank()) {
                    continue;
                }
                String[] f = TraceFiles.csv(line);
                if (f.length < 9) {
                    throw new TraceFormatException(file, lineNo,
                            "expected 13 comma-separated task_events columns, got " + f.length);
                }
                long t = TraceFiles.integer(file, lineNo, f, 0, "timestamp");
                long jobId = TraceFiles.integer(file, lineNo, f, 2, "job ID");
                long task = TraceFiles.integer(file, lineNo, f, 3, "task index");
                long type = TraceFiles.integer(file, lineNo, f, 5, "event type");
                if (type < 0 || type > 8) {
                    throw new TraceFormatException(file, lineNo, "event type must be 0..8, got " + type);
                }
                Job job = jobs.get(jobId);
                if (job == null) {
                    long priority = f[8].isBlank() ? 0 : TraceFiles.integer(file, lineNo, f, 8, "priority");
                    job = new Job(t, f[6], priority <= maxPriority);
                    jobs.put(jobId, job);
                }
                if (!job.kept) {
                    continue;
                }
                if (type == 0 && job.submitMicros < 0) {
                    job.submitMicros = t;
                } else if (type == 1) {
                    job.scheduled.put(task, t);
                } else if (type == 4) {
                    Long start = job.scheduled.remove(task);
                    if (start != null) {
                        job.add(Math.max(0, t - start) / 1e6);
                    }
                } else if (type == 2 || type == 3 || type == 5 || type == 6) {
                    job.scheduled.remove(task);
                }
            }
        }
        long emitted = 0;
        long unfinished = 0;
        long filtered = 0;
        for (Map.Entry<Long, Job> e : jobs.entrySet()) {
            Job job = e.getValue();
            if (!job.kept) {
                filtered++;
                continue;
            }
            if (job.count == 0) {
                unfinished++;
                continue;
            }
            double[] d = java.util.Arrays.copyOf(job.durations, job.count);
            double comp = 0;
            for (double x : d) {
                comp += x;
            }
            long submit = job.submitMicros >= 0 ? job.submitMicros : job.firstMicros;
            sink.accept(new TraceJob(Long.toString(e.getKey()), submit / 1e6, d.length, comp, Double.NaN, job.user,
                    d));
            emitted++;
        }
        return new ReadStats(lineNo, emitted, unfinished + filtered, unfinished
                + " jobs without a task run from SCHEDULE to FINISH in the file, " + filtered
                + " jobs above priority " + maxPriority);
    }
}
