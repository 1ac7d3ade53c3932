package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * The decoder reads every released version in kafka-schemas/compat/, and the Java records and enums mirror the
 * schemas.
 */
class SchemaFilesTest {

    private static final Map<EventType, Class<? extends Record>> RECORDS = Map.of(EventType.YARN_CONTAINER,
            YarnContainerEvent.class, EventType.MESOS_TASK, MesosTaskStatus.class, EventType.JOB_SUBMITTED,
            JobSubmitted.class, EventType.JOB_FINISHED, JobFinished.class, EventType.DEMAND, DemandReported.class,
            EventType.CAPACITY, CapacityChanged.class, EventType.WORKFLOW, WorkflowSubmitted.class);

    @Test
    void everyReleasedVersionInCompatIsRead() {
        List<String> files = SchemaTestFiles.schemaFiles(SchemaTestFiles.kafkaSchemas().resolve("compat")).stream()
                .map(file -> file.getFileName().toString()).sorted().toList();
        assertThat(SchemaTexts.RELEASED_FILES)
                .as("kafka-schemas/compat/ holds a file SchemaTexts.RELEASED_FILES does not list")
                .containsExactlyElementsOf(files);
    }

    @Test
    void javaRecordsHaveTheSchemaFieldsInOrder() {
        for (EventType type : EventType.values()) {
            assertThat(componentNames(RECORDS.get(type))).as(type.typeName())
                    .isEqualTo(type.schema().getFields().stream().map(Schema.Field::name).toList());
        }
        Schema job = EventType.WORKFLOW.schema().getField("jobs").schema().getElementType();
        assertThat(componentNames(WorkflowSubmitted.WorkflowJob.class))
                .isEqualTo(job.getFields().stream().map(Schema.Field::name).toList());
    }

    @Test
    void javaEnumsHaveTheSchemaSymbols() {
        assertSymbols(EventType.YARN_CONTAINER, "state", YarnContainerState.values());
        assertSymbols(EventType.MESOS_TASK, "state", MesosTaskState.values());
        assertSymbols(EventType.JOB_FINISHED, "outcome", JobOutcome.values());
        assertSymbols(EventType.CAPACITY, "change", CapacityChange.values());
    }

    @Test
    void everyTopicCarriesAtLeastOneTypeAndTypesHaveDistinctFingerprints() {
        for (String topic : EventTopics.ALL) {
            assertThat(EventType.onTopic(topic)).as(topic).isNotEmpty();
        }
        assertThat(Arrays.stream(EventType.values()).map(EventType::fingerprint).distinct())
                .hasSize(EventType.values().length);
    }

    private static void assertSymbols(EventType type, String field, Enum<?>[] constants) {
        assertThat(Arrays.stream(constants).map(Enum::name).toList()).as(type.typeName() + "." + field)
                .isEqualTo(type.schema().getField(field).schema().getEnumSymbols());
    }

    private static List<String> componentNames(Class<? extends Record> type) {
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName).toList();
    }
}
