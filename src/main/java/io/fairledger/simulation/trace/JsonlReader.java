package io.fairledger.simulation.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The project's JSON Lines job format (docs/domain.md section 11), one job a line, seconds:
 * {@code {"id":"j1","submit":0.0,"tasks":10,"compTime":500.0,"deadline":100.0,"tenant":"a","taskDurations":[...]}};
 * {@code tenant} and {@code taskDurations} optional. Blank lines are skipped; ids must be unique.
 */
public final class JsonlReader implements TraceReader {

    private final ObjectMapper mapper = new ObjectMapper();

    @Override
    public ReadStats read(Path file, Consumer<TraceJob> sink) throws IOException, TraceFormatException {
        Set<String> ids = new HashSet<>();
        long lineNo = 0;
        long jobs = 0;
        try (BufferedReader in = TraceFiles.lines(file)) {
            String raw;
            while ((raw = in.readLine()) != null) {
                lineNo++;
                String line = raw.strip();
                if (line.isEmpty()) {
                    continue;
                }
                try {
                    TraceJob job = parse(mapper.readTree(line));
                    if (!ids.add(job.id())) {
                        throw new TraceFormatException(file, lineNo, "duplicate job id '" + job.id() + "'");
                    }
                    sink.accept(job);
                    jobs++;
                } catch (JsonProcessingException e) {
                    throw new TraceFormatException(file, lineNo, "malformed JSON: " + e.getOriginalMessage());
                } catch (IllegalArgumentException e) {
                    throw new TraceFormatException(file, lineNo, e.getMessage());
                }
            }
        }
        return new ReadStats(lineNo, jobs, 0, "");
    }

    private static TraceJob parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("expected a JSON object");
        }
        JsonNode id = node.get("id");
        if (id == null || !id.isTextual() || id.asText().isBlank()) {
            throw new IllegalArgumentException("'id' must be a non-empty string");
        }
        double submit = number(node, "submit");
        JsonNode tasks = node.get("tasks");
        if (tasks == null || !tasks.canConvertToExactIntegral() || !tasks.canConvertToInt()) {
            throw new IllegalArgumentException("'tasks' must be an integer");
        }
        if (tasks.asInt() < 1) {
            throw new IllegalArgumentException("'tasks' must be >= 1, got " + tasks.asInt());
        }
        double compTime = number(node, "compTime");
        double deadline = number(node, "deadline");
        if (submit < 0) {
            throw new IllegalArgumentException("'submit' must be >= 0, got " + submit);
        }
        if (compTime < 0) {
            throw new IllegalArgumentException("'compTime' must be >= 0, got " + compTime);
        }
        if (Math.round(deadline * 1000) < 1) {
            throw new IllegalArgumentException("'deadline' must be at least 0.001 s, got " + deadline);
        }
        JsonNode tenant = node.get("tenant");
        if (tenant != null && !tenant.isNull() && !tenant.isTextual()) {
            throw new IllegalArgumentException("'tenant' must be a string");
        }
        double[] durations = null;
        JsonNode d = node.get("taskDurations");
        if (d != null && !d.isNull()) {
            if (!d.isArray()) {
                throw new IllegalArgumentException("'taskDurations' must be an array of numbers");
            }
            durations = new double[d.size()];
            for (int i = 0; i < d.size(); i++) {
                if (!d.get(i).isNumber() || !(d.get(i).asDouble() >= 0)) {
                    throw new IllegalArgumentException("'taskDurations' must hold numbers >= 0");
                }
                durations[i] = d.get(i).asDouble();
            }
        }
        return new TraceJob(id.asText(), submit, tasks.asInt(), compTime, deadline,
                tenant == null || tenant.isNull() ? "" : tenant.asText(), durations);
    }

    private static double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("'" + field + "' is missing");
        }
        if (!value.isNumber() || !Double.isFinite(value.asDouble())) {
            throw new IllegalArgumentException("'" + field + "' must be a number, got " + value);
        }
        return value.asDouble();
    }
}
