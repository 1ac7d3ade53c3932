package io.fairledger.ingest.schema;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.SchemaParseException;

import io.fairledger.ingest.schema.AvroSingleObjectReader.WriterSchema;

/**
 * The writer schemas of registry-framed records: looked up in the {@link SchemaRegistry} by id, matched to a known
 * fairledger schema version by the fingerprint of the schema's parsing canonical form (the fingerprint Avro
 * single-object encoding carries), or else, for a version fairledger has not seen, resolved against the current schema
 * of the type of the same full name when Avro finds the two compatible. Answers are remembered in a bounded cache
 * (least recently used out first): a found or unreadable schema for good, since a registry never changes what an id
 * means; an unknown id for {@link #UNKNOWN_ID_MEMORY} only, since it may yet be registered. An unreachable registry is
 * not remembered. Thread-safe.
 */
final class RegistryWriters {

    /** How long an id the registry did not know is answered from the cache. */
    static final Duration UNKNOWN_ID_MEMORY = Duration.ofMinutes(1);

    private static final Pattern FIELD = Pattern.compile("/fields/(\\d+)");

    private final SchemaRegistry registry;
    private final LongFunction<WriterSchema> known;
    private final Clock clock;
    private final Map<Key, Entry> cache;

    private record Key(RegistryFrame.IdKind kind, long id) {
    }

    /** A writer, or a rejection that holds until {@code until} (null: for good). */
    private record Entry(WriterSchema writer, Rejection rejection, Instant until) {
    }

    /**
     * @param registry the registry to ask
     * @param known    the known writer schema of a fingerprint, or null
     * @param capacity how many ids the cache holds at most
     * @param clock    for the expiry of unknown ids
     */
    RegistryWriters(SchemaRegistry registry, LongFunction<WriterSchema> known, int capacity, Clock clock) {
        if (capacity < 1) {
            throw new IllegalArgumentException("the schema cache must hold at least one id, got " + capacity);
        }
        this.registry = registry;
        this.known = known;
        this.clock = clock;
        this.cache = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * The writer schema of {@code frame}'s id.
     *
     * @throws RejectedException            when the registry has no such id, or its schema cannot be read as a
     *                                      fairledger event
     * @throws RegistryUnavailableException when the registry cannot be asked
     */
    WriterSchema writer(RegistryFrame frame) throws RejectedException {
        Key key = new Key(frame.kind(), frame.id());
        Entry entry = cached(key);
        if (entry == null) {
            entry = resolve(frame, registry.lookup(frame.kind(), frame.id()));
            synchronized (cache) {
                cache.put(key, entry);
            }
        }
        if (entry.rejection() != null) {
            throw new RejectedException(entry.rejection());
        }
        return entry.writer();
    }

    /** How many ids the cache holds now. */
    int cached() {
        synchronized (cache) {
            return cache.size();
        }
    }

    private Entry cached(Key key) {
        synchronized (cache) {
            Entry entry = cache.get(key);
            if (entry != null && entry.until() != null && !clock.instant().isBefore(entry.until())) {
                cache.remove(key);
                return null;
            }
            return entry;
        }
    }

    private Entry resolve(RegistryFrame frame, SchemaRegistry.Answer answer) {
        if (answer.schema() == null) {
            return new Entry(null, new Rejection(Rejection.Reason.UNKNOWN_SCHEMA_ID, null,
                    frame.describe() + " is not in the schema registry (" + answer.missing() + ")"),
                    clock.instant().plus(UNKNOWN_ID_MEMORY));
        }
        Schema schema;
        try {
            Schema.Parser parser = new Schema.Parser().setValidateDefaults(false);
            for (String reference : answer.references()) {
                parser.parse(reference);
            }
            schema = parser.parse(answer.schema());
        } catch (SchemaParseException | AvroTypeException | NullPointerException e) {
            return mismatch(frame.describe() + " is not an Avro schema: " + e.getMessage());
        }
        WriterSchema writer = known.apply(SchemaNormalization.parsingFingerprint64(schema));
        if (writer != null) {
            return new Entry(writer, null, null);
        }
        EventType type = schema.getType() == Schema.Type.RECORD
                ? EventType.byTypeName(schema.getName())
                        .filter(t -> t.schema().getFullName().equals(schema.getFullName())).orElse(null)
                : null;
        if (type == null) {
            return mismatch(frame.describe() + " is " + (schema.getType() == Schema.Type.RECORD
                    ? "record " + schema.getFullName()
                    : "a " + schema.getType().getName() + " schema") + ", not a fairledger event type");
        }
        SchemaCompatibility.SchemaPairCompatibility compatibility = SchemaCompatibility
                .checkReaderWriterCompatibility(type.schema(), schema);
        if (compatibility.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            return mismatch(frame.describe() + " is a version of " + type.typeName()
                    + " that the current schema cannot read: " + compatibility.getResult().getIncompatibilities()
                            .stream().map(i -> i.getMessage() + " at " + where(type.schema(), i.getLocation()))
                            .collect(Collectors.joining("; ")));
        }
        return new Entry(new WriterSchema(type, schema), null, null);
    }

    /** An incompatibility's location in the reader schema, a JSON pointer, with the name of the field it is in. */
    private static String where(Schema reader, String location) {
        Matcher field = FIELD.matcher(location);
        if (field.lookingAt()) {
            int index = Integer.parseInt(field.group(1));
            if (index < reader.getFields().size()) {
                return "field " + reader.getFields().get(index).name() + " (" + location + ")";
            }
        }
        return location;
    }

    private static Entry mismatch(String detail) {
        return new Entry(null, new Rejection(Rejection.Reason.SCHEMA_MISMATCH, null, detail), null);
    }
}
