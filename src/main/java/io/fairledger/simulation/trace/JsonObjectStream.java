package io.fairledger.simulation.trace;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Concatenated JSON objects (SLS Rumen and SLS native), read one object at a time: only the current job's object is in
 * memory. A top-level JSON array of objects is accepted too.
 */
final class JsonObjectStream {

    /** What to do with one object; {@code line} is where it starts. */
    interface Handler {
        void accept(JsonNode object, long line) throws TraceFormatException;
    }

    private JsonObjectStream() {
    }

    /** Returns the number of objects read. */
    static long forEach(Path file, Handler handler) throws IOException, TraceFormatException {
        ObjectMapper mapper = new ObjectMapper();
        long objects = 0;
        long line = 1;
        try (JsonParser parser = mapper.getFactory().createParser(TraceFiles.open(file))) {
            JsonToken token;
            boolean inArray = false;
            while (true) {
                try {
                    token = parser.nextToken();
                    if (token == null) {
                        break;
                    }
                    line = parser.currentTokenLocation().getLineNr();
                    if (token == JsonToken.START_ARRAY && !inArray && objects == 0) {
                        inArray = true;
                        continue;
                    }
                    if (token == JsonToken.END_ARRAY && inArray) {
                        inArray = false;
                        continue;
                    }
                    if (token != JsonToken.START_OBJECT) {
                        throw new TraceFormatException(file, line, "expected a JSON object, got " + token);
                    }
                    JsonNode node = mapper.readTree(parser);
                    objects++;
                    handler.accept(node, line);
                } catch (JsonProcessingException e) {
                    long at = e.getLocation() == null ? line : e.getLocation().getLineNr();
                    throw new TraceFormatException(file, at, "malformed JSON: " + e.getOriginalMessage());
                }
            }
        }
        return objects;
    }

    static String text(Path file, long line, JsonNode node, String field) throws TraceFormatException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull() || v.asText().isBlank()) {
            throw new TraceFormatException(file, line, "'" + field + "' is missing");
        }
        return v.asText();
    }

    static long millis(Path file, long line, JsonNode node, String field) throws TraceFormatException {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new TraceFormatException(file, line, "'" + field + "' is missing");
        }
        if (!v.canConvertToLong()) {
            throw new TraceFormatException(file, line, "'" + field + "' must be an integer (ms), got " + v);
        }
        return v.asLong();
    }
}
