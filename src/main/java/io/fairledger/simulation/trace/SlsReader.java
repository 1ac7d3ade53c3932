package io.fairledger.simulation.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Hadoop SLS native input (concatenated JSON job objects; {@code hadoop-sls} {@code inputsls.json}).
 *
 * <p>
 * Conversion: id {@code job.id}; submit {@code job.start.ms}; tenant {@code job.queue.name}; tasks the entries of
 * {@code job.tasks}; a task's duration {@code container.end.ms - container.start.ms} (0 if negative); compTime their
 * sum (container-seconds). No deadlines.
 */
public final class SlsReader implements TraceReader {

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        long[] jobs = {0};
        long objects = JsonObjectStream.forEach(file, (job, line) -> {
            String id = JsonObjectStream.text(file, line, job, "job.id");
            long submit = JsonObjectStream.millis(file, line, job, "job.start.ms");
            JsonNode tasks = job.get("job.tasks");
            if (tasks == null || !tasks.isArray() || tasks.isEmpty()) {
                throw new TraceFormatException(file, line, "job " + id + ": 'job.tasks' must be a non-empty array");
            }
            double[] d = new double[tasks.size()];
            double comp = 0;
            for (int i = 0; i < d.length; i++) {
                JsonNode t = tasks.get(i);
                long start = JsonObjectStream.millis(file, line, t, "container.start.ms");
                long end = JsonObjectStream.millis(file, line, t, "container.end.ms");
                d[i] = Math.max(0, end - start) / 1000.0;
                comp += d[i];
            }
            JsonNode queue = job.get("job.queue.name");
            sink.accept(new TraceJob(id, submit / 1000.0, d.length, comp, Double.NaN,
                    queue == null || queue.isNull() ? "" : queue.asText(), d));
            jobs[0]++;
        });
        return new ReadStats(objects, jobs[0], 0, "");
    }
}
