package io.fairledger.simulation.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fairledger.core.admission.JobRequest;

/** Reads a trace of any {@link TraceFormat} into admission requests. */
public final class Traces {

    /**
     * A trace ready to simulate.
     *
     * @param jobs
     *            requests, submit shifted so the trace's first submit is 0 (JSON Lines keep their own clock)
     * @param taskSeconds
     *            job id to task durations, for the task-wave model (jobs without are absent)
     * @param hasDeadlines
     *            whether every job came with a deadline
     * @param stats
     *            what the reader read and left out
     */
    public record Loaded(List<JobRequest> jobs, Map<String, double[]> taskSeconds, boolean hasDeadlines,
            TraceReader.ReadStats stats) {
    }

    private Traces() {
    }

    /** The reader of {@code format}. */
    public static TraceReader reader(TraceFormat format, SwimReader.Conversion swim, int googleMaxPriority) {
        return switch (format) {
            case SLS_RUMEN -> new RumenReader();
            case SLS -> new SlsReader();
            case GOOGLE2011 -> new Google2011Reader(googleMaxPriority);
            case ALIBABA2017 -> new Alibaba2017Reader();
            case SWF -> new SwfReader();
            case SWIM -> new SwimReader(swim);
            case JSONL -> new JsonlReader();
        };
    }

    /** Reads {@code file}; {@code keepTaskSeconds} false drops task durations as they stream by. */
    public static Loaded load(Path file, TraceFormat format, TraceReader reader, boolean keepTaskSeconds)
            throws IOException, TraceFormatException {
        List<TraceJob> raw = new ArrayList<>();
        Map<String, double[]> durations = new HashMap<>();
        Set<String> ids = new HashSet<>();
        String[] duplicate = {null};
        TraceReader.ReadStats stats = reader.read(file, job -> {
            if (!ids.add(job.id()) && duplicate[0] == null) {
                duplicate[0] = job.id();
            }
            if (keepTaskSeconds && job.taskSeconds() != null) {
                durations.put(job.id(), job.taskSeconds());
            }
            raw.add(new TraceJob(job.id(), job.submitSeconds(), job.tasks(), job.compTimeSeconds(),
                    job.deadlineSeconds(), job.tenant(), null));
        });
        if (duplicate[0] != null) {
            throw new TraceFormatException(file, "duplicate job id '" + duplicate[0] + "'");
        }
        if (raw.isEmpty()) {
            throw new TraceFormatException(file, "no job in the trace" + (stats.note().isEmpty()
                    ? ""
                    : " (" + stats.note() + ")"));
        }
        double origin = 0;
        if (format != TraceFormat.JSONL) {
            origin = raw.stream().mapToDouble(TraceJob::submitSeconds).min().orElse(0);
        }
        boolean deadlines = true;
        List<JobRequest> jobs = new ArrayList<>(raw.size());
        for (TraceJob job : raw) {
            deadlines &= job.hasDeadline();
            jobs.add(job.request(origin));
        }
        return new Loaded(jobs, durations, deadlines, stats);
    }
}
