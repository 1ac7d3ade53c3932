package io.fairledger.ingest.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.message.BinaryMessageEncoder;

/**
 * Writes events in Avro single-object encoding with the current schema, the bytes a producer sends with
 * {@code content-type: application/avro}. For the replay command, load generators and tests. Thread-safe.
 */
public final class EventEncoder {

    private final Map<EventType, BinaryMessageEncoder<GenericRecord>> encoders = new EnumMap<>(EventType.class);

    public EventEncoder() {
        for (EventType type : EventType.values()) {
            encoders.put(type, new BinaryMessageEncoder<>(GenericData.get(), type.schema()));
        }
    }

    /** The type of {@code event}. */
    public static EventType typeOf(FairledgerEvent event) {
        String name = event.getClass().getSimpleName();
        return EventType.byTypeName(name)
                .orElseThrow(() -> new IllegalStateException("no event type for " + event.getClass().getName()));
    }

    /** {@code event} in Avro single-object encoding. */
    public byte[] toAvro(FairledgerEvent event) {
        EventType type = typeOf(event);
        try {
            ByteBuffer buffer = encoders.get(type).encode(toRecord((Record) event, type.schema()));
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode " + type.typeName(), e);
        }
    }

    /** The Avro record for a Java record whose components are the schema's fields (the event records are). */
    static GenericRecord toRecord(Record value, Schema schema) {
        GenericData.Record record = new GenericData.Record(schema);
        for (RecordComponent component : value.getClass().getRecordComponents()) {
            Schema.Field field = schema.getField(component.getName());
            try {
                record.put(field.pos(), toAvro(component.getAccessor().invoke(value), field.schema()));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + component, e);
            }
        }
        return record;
    }

    private static Object toAvro(Object value, Schema schema) {
        if (value == null) {
            return null;
        }
        Schema target = schema;
        if (schema.getType() == Schema.Type.UNION) {
            target = schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).findFirst().orElseThrow();
        }
        if (value instanceof Instant instant) {
            return instant.toEpochMilli();
        }
        if (value instanceof Enum<?> symbol) {
            return new GenericData.EnumSymbol(target, symbol.name());
        }
        if (value instanceof Record nested) {
            return toRecord(nested, target);
        }
        if (value instanceof List<?> list) {
            List<Object> items = new ArrayList<>(list.size());
            for (Object item : list) {
                items.add(toAvro(item, target.getElementType()));
            }
            return new GenericData.Array<>(target, items);
        }
        return value;
    }
}
