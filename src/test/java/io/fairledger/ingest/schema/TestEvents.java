package io.fairledger.ingest.schema;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;

/** Shared fixtures: a fixed clock after every example, and Avro single-object encoding of plain JSON events. */
final class TestEvents {

    /** The server clock of the tests: a day after the examples. */
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    private TestEvents() {
    }

    static EventDecoder decoder() {
        return new EventDecoder(CLOCK);
    }

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The Avro record a plain-JSON (or Mesos-shaped) event on {@code topic} stands for. */
    static GenericRecord avroRecord(String topic, String json) throws RejectedException {
        JsonNode root = EventDecoder.parse(utf8(json));
        if (topic.equals(EventTopics.MESOS_TASKS) && MesosShapes.isMesosShape(root)) {
            root = MesosShapes.toPlain(root);
        }
        List<EventType> types = EventType.onTopic(topic);
        EventType type = types.size() == 1
                ? types.get(0)
                : EventType.byTypeName(root.path("type").asText()).orElseThrow();
        return JsonRecordReader.read(root, type.schema());
    }

    /** {@code record} in Avro single-object encoding with its own schema as the writer schema. */
    static byte[] singleObject(GenericRecord record) {
        return singleObject(record, record.getSchema());
    }

    /** {@code record} in Avro single-object encoding with {@code writer} as the writer schema. */
    static byte[] singleObject(GenericRecord record, Schema writer) {
        try {
            ByteBuffer buffer = new BinaryMessageEncoder<GenericRecord>(GenericData.get(), writer).encode(record);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
