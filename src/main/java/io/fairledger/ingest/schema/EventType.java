package io.fairledger.ingest.schema;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericRecord;

/**
 * The event record types: each with its Avro schema (the current v1 version), the topic that carries it and how its
 * Avro record becomes the Java record. {@link #typeName()} is the Avro record name, also used as the {@code type} field
 * of the JSON encoding.
 */
public enum EventType {

    YARN_CONTAINER(SchemaTexts.YARN_CONTAINER_EVENT, EventTopics.YARN_CONTAINERS,
            AvroRecords::yarnContainer), MESOS_TASK(SchemaTexts.MESOS_TASK_STATUS, EventTopics.MESOS_TASKS,
                    AvroRecords::mesosTask), JOB_SUBMITTED(SchemaTexts.JOB_SUBMITTED, EventTopics.JOBS,
                            AvroRecords::jobSubmitted), JOB_FINISHED(SchemaTexts.JOB_FINISHED, EventTopics.JOBS,
                                    AvroRecords::jobFinished), DEMAND(SchemaTexts.DEMAND_REPORTED, EventTopics.DEMAND,
                                            AvroRecords::demand), CAPACITY(SchemaTexts.CAPACITY_CHANGED,
                                                    EventTopics.CAPACITY,
                                                    AvroRecords::capacity), WORKFLOW(SchemaTexts.WORKFLOW_SUBMITTED,
                                                            EventTopics.WORKFLOWS, AvroRecords::workflow);

    /** {@link #onTopic}'s answers, worked out once: the decoder asks for every record. */
    private static final Map<String, List<EventType>> ON_TOPIC = Arrays.stream(values())
            .collect(Collectors.groupingBy(EventType::topic, Collectors.toUnmodifiableList()));

    private final Schema schema;
    private final long fingerprint;
    private final String topic;
    private final Function<GenericRecord, FairledgerEvent> toEvent;

    EventType(String schemaText, String topic, Function<GenericRecord, FairledgerEvent> toEvent) {
        this.schema = new Schema.Parser().parse(schemaText);
        this.fingerprint = SchemaNormalization.parsingFingerprint64(schema);
        this.topic = topic;
        this.toEvent = toEvent;
    }

    /** The current v1 Avro schema, the reader schema for every writer version. */
    public Schema schema() {
        return schema;
    }

    /** The Avro record name without namespace, e.g. {@code JobSubmitted}; the JSON {@code type} value. */
    public String typeName() {
        return schema.getName();
    }

    /** CRC-64-AVRO fingerprint of the current schema, as in the Avro single-object encoding header. */
    public long fingerprint() {
        return fingerprint;
    }

    /** The topic that carries this type. */
    public String topic() {
        return topic;
    }

    /** The types a topic carries; empty for a topic that is not an event topic. */
    public static List<EventType> onTopic(String topic) {
        return ON_TOPIC.getOrDefault(topic, List.of());
    }

    /** The type with this Avro record name, e.g. {@code JobFinished}. */
    public static Optional<EventType> byTypeName(String typeName) {
        return Arrays.stream(values()).filter(type -> type.typeName().equals(typeName)).findFirst();
    }

    /**
     * The type of a JSON event read outside a topic (a file, {@code fairledger replay}): a Mesos shape (an operator
     * {@code TASK_ADDED}/{@code TASK_UPDATED}, a scheduler {@code UPDATE}, a bare TaskStatus) is a {@link #MESOS_TASK},
     * anything else is named by its {@code type} member. Empty when neither tells.
     */
    public static Optional<EventType> ofJson(JsonNode root) {
        if (MesosShapes.isMesosShape(root)) {
            return Optional.of(MESOS_TASK);
        }
        JsonNode type = root.get("type");
        return type == null || type.isNull() ? Optional.empty() : byTypeName(type.asText());
    }

    FairledgerEvent toEvent(GenericRecord record) {
        return toEvent.apply(record);
    }
}
