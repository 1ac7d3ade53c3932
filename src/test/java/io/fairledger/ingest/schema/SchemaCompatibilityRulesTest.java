package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.Schema;
import org.junit.jupiter.api.Test;

/**
 * Checks the compatibility rules of kafka-schemas/README.md on the committed schemas, and shows on deliberately broken
 * variants that the check fails when a rule is broken.
 */
class SchemaCompatibilityRulesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everySchemaParsesAndHasDocsNamespaceAndEnvelope() {
        List<Path> files = SchemaTestFiles.schemaFiles(SchemaTestFiles.kafkaSchemas());
        assertThat(files).hasSize(EventType.values().length);
        List<String> violations = new ArrayList<>();
        for (Path file : files) {
            Schema schema = parse(file);
            assertThat(schema.getName() + ".avsc").as("file name").isEqualTo(file.getFileName().toString());
            violations.addAll(SchemaRules.shapeViolations(schema));
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void everySchemaIsBackwardAndForwardCompatibleWithEveryReleasedVersion() {
        Path root = SchemaTestFiles.kafkaSchemas();
        Map<String, Schema> current = new TreeMap<>();
        for (Path file : SchemaTestFiles.schemaFiles(root)) {
            Schema schema = parse(file);
            current.put(schema.getFullName(), schema);
        }
        List<String> violations = new ArrayList<>();
        Set<String> released = new TreeSet<>();
        for (Path baselineFile : SchemaTestFiles.schemaFiles(root.resolve("compat"))) {
            Schema baseline = parse(baselineFile);
            released.add(baseline.getFullName());
            Schema now = current.get(baseline.getFullName());
            if (now == null) {
                violations.add("compat/" + baselineFile.getFileName() + ": " + baseline.getFullName()
                        + " was removed or renamed; within v1 types are only added");
                continue;
            }
            violations.addAll(SchemaRules.compatibilityViolations(now, baseline).stream()
                    .map(v -> "against compat/" + baselineFile.getFileName() + ": " + v).toList());
        }
        for (String name : current.keySet()) {
            if (!released.contains(name)) {
                violations.add(name + ": has no released version in kafka-schemas/compat/ (copy it there)");
            }
        }
        assertThat(violations).isEmpty();
    }

    @Test
    void addingAnOptionalFieldWithADefaultAndAnEnumSymbolIsAllowed() throws Exception {
        ObjectNode changed = baselineJson("YarnContainerEvent");
        fields(changed).add(JSON.readTree("{\"name\":\"diagnostics\",\"type\":[\"null\",\"string\"],\"default\":null,"
                + "\"doc\":\"Diagnostics text.\"}"));
        ObjectNode state = (ObjectNode) field(changed, "state").get("type");
        ((ArrayNode) state.get("symbols")).add("PAUSED");
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("YarnContainerEvent"))).isEmpty();
        assertThat(SchemaRules.shapeViolations(parse(changed))).isEmpty();
    }

    @Test
    void addingARequiredFieldIsABreakingChange() throws Exception {
        ObjectNode changed = baselineJson("JobSubmitted");
        fields(changed).add(JSON.readTree("{\"name\":\"priority\",\"type\":\"int\",\"doc\":\"Priority.\"}"));
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("JobSubmitted")))
                .anySatisfy(v -> assertThat(v).contains("not backward compatible"))
                .anySatisfy(v -> assertThat(v).contains("priority: a field added within v1 needs a default"));
    }

    @Test
    void removingARequiredFieldIsABreakingChange() {
        ObjectNode changed = baselineJson("DemandReported");
        removeField(changed, "pendingMemoryMb");
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("DemandReported")))
                .anySatisfy(v -> assertThat(v).contains("not forward compatible").contains("pendingMemoryMb"));
    }

    @Test
    void removingAnOptionalFieldIsABreakingChangeToo() {
        ObjectNode changed = baselineJson("WorkflowSubmitted");
        ObjectNode job = (ObjectNode) field(changed, "jobs").get("type").get("items");
        removeField(job, "estimatedCpuSeconds");
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("WorkflowSubmitted")))
                .containsExactly("WorkflowJob.estimatedCpuSeconds: removed; within v1 fields stay");
    }

    @Test
    void changingAFieldTypeIsABreakingChange() {
        ObjectNode changed = baselineJson("CapacityChanged");
        field(changed, "memoryMb").put("type", "string");
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("CapacityChanged")))
                .anySatisfy(v -> assertThat(v).contains("not backward compatible"))
                .anySatisfy(v -> assertThat(v).contains("not forward compatible"));
    }

    @Test
    void removingAnEnumSymbolIsABreakingChange() {
        ObjectNode changed = baselineJson("JobFinished");
        ObjectNode outcome = (ObjectNode) field(changed, "outcome").get("type");
        outcome.set("symbols", JSON.createArrayNode().add("SUCCEEDED").add("FAILED").add("UNKNOWN"));
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("JobFinished")))
                .containsExactly("JobOutcome.KILLED: enum symbol removed; within v1 symbols stay");
    }

    @Test
    void renamingARecordIsABreakingChange() {
        ObjectNode changed = baselineJson("WorkflowSubmitted");
        changed.put("name", "WorkflowCreated");
        assertThat(SchemaRules.compatibilityViolations(parse(changed), baseline("WorkflowSubmitted")))
                .anySatisfy(v -> assertThat(v).contains("renamed"));
    }

    @Test
    void aFieldWithoutDocOrAnEventWithoutEnvelopeIsRejected() {
        ObjectNode changed = baselineJson("MesosTaskStatus");
        field(changed, "role").remove("doc");
        removeField(changed, "cluster");
        assertThat(SchemaRules.shapeViolations(parse(changed))).containsExactlyInAnyOrder(
                "MesosTaskStatus.role: field has no doc", "MesosTaskStatus: every event needs the field cluster");
    }

    @Test
    void anEventTimeWithoutTheTimestampLogicalTypeIsRejected() {
        ObjectNode changed = baselineJson("JobFinished");
        field(changed, "eventTime").put("type", "long");
        assertThat(SchemaRules.shapeViolations(parse(changed)))
                .containsExactly("JobFinished.eventTime: must have logicalType timestamp-millis");
    }

    private static Schema baseline(String name) {
        return parse(SchemaTestFiles.kafkaSchemas().resolve("compat").resolve(name + ".avsc"));
    }

    private static ObjectNode baselineJson(String name) {
        try {
            return (ObjectNode) JSON.readTree(
                    SchemaTestFiles.read(SchemaTestFiles.kafkaSchemas().resolve("compat").resolve(name + ".avsc")));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ArrayNode fields(ObjectNode record) {
        return (ArrayNode) record.get("fields");
    }

    private static ObjectNode field(ObjectNode record, String name) {
        for (var field : fields(record)) {
            if (field.get("name").asText().equals(name)) {
                return (ObjectNode) field;
            }
        }
        throw new IllegalArgumentException("no field " + name);
    }

    private static void removeField(ObjectNode record, String name) {
        ArrayNode fields = fields(record);
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).get("name").asText().equals(name)) {
                fields.remove(i);
                return;
            }
        }
        throw new IllegalArgumentException("no field " + name);
    }

    private static Schema parse(Path file) {
        return new Schema.Parser().parse(SchemaTestFiles.read(file));
    }

    private static Schema parse(ObjectNode json) {
        return new Schema.Parser().parse(json.toString());
    }
}
