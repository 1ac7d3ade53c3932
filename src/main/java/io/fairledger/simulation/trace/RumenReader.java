package io.fairledger.simulation.trace;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Hadoop SLS Rumen job history (concatenated JSON job objects; {@code hadoop-sls} {@code 2jobs2min-rumen-jh.json}).
 *
 * <p>
 * Conversion: id {@code jobID}; submit {@code submitTime} (ms); tenant {@code queue}; tasks {@code mapTasks +
 * reduceTasks}; a task's duration is the sum over its attempts of {@code finishTime - startTime} (failed attempts held
 * a container too), or the task's own {@code finishTime - startTime} when it has no attempt (a killed task), or 0;
 * compTime the sum of task durations (container-seconds, one CPU per container). No deadlines.
 */
public final class RumenReader implements TraceReader {

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        long[] jobs = {0};
        long objects = JsonObjectStream.forEach(file, (job, line) -> {
            String id = JsonObjectStream.text(file, line, job, "jobID");
            long submit = JsonObjectStream.millis(file, line, job, "submitTime");
            List<Double> durations = new ArrayList<>();
            for (String kind : List.of("mapTasks", "reduceTasks")) {
                JsonNode tasks = job.get(kind);
                if (tasks == null || tasks.isNull()) {
                    continue;
                }
                if (!tasks.isArray()) {
                    throw new TraceFormatException(file, line, "job " + id + ": '" + kind + "' must be an array");
                }
                for (JsonNode task : tasks) {
                    durations.add(taskSeconds(file, line, id, task));
                }
            }
            if (durations.isEmpty()) {
                throw new TraceFormatException(file, line, "job " + id + " has no map or reduce task");
            }
            double[] d = durations.stream().mapToDouble(Double::doubleValue).toArray();
            double comp = 0;
            for (double x : d) {
                comp += x;
            }
            JsonNode queue = job.get("queue");
            sink.accept(new TraceJob(id, submit / 1000.0, d.length, comp, Double.NaN,
                    queue == null || queue.isNull() ? "" : queue.asText(), d));
            jobs[0]++;
        });
        return new ReadStats(objects, jobs[0], 0, "");
    }

    private static double taskSeconds(Path file, long line, String job, JsonNode task) throws TraceFormatException {
        JsonNode attempts = task.get("attempts");
        long ms = 0;
        if (attempts != null && attempts.isArray() && !attempts.isEmpty()) {
            for (JsonNode a : attempts) {
                ms += span(file, line, job, a);
            }
        } else {
            ms = span(file, line, job, task);
        }
        return ms / 1000.0;
    }

    private static long span(Path file, long line, String job, JsonNode node) throws TraceFormatException {
        JsonNode start = node.get("startTime");
        JsonNode finish = node.get("finishTime");
        if (start == null || finish == null || !start.canConvertToLong() || !finish.canConvertToLong()) {
            throw new TraceFormatException(file, line, "job " + job + ": a task or attempt lacks integer "
                    + "startTime/finishTime");
        }
        long s = start.asLong();
        long f = finish.asLong();
        return s > 0 && f > s ? f - s : 0;
    }
}
