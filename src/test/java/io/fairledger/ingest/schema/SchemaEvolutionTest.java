package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * What the compatibility rules buy at run time: data from an earlier (known) writer version reads with the current
 * schema, an unknown newer version is a schema mismatch, and plain JSON from a newer producer still decodes.
 */
class SchemaEvolutionTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DEMAND = "{\"eventId\":\"d1\",\"cluster\":\"c1\",\"eventTime\":\"2026-11-22T09:00:00Z\","
            + "\"tenant\":\"root.a\",\"pendingCpus\":4,\"pendingMemoryMb\":4096}";

    @Test
    void anEarlierWriterVersionDecodesWithTheCurrentSchemaAndDefaults() throws Exception {
        Schema earlier = withoutField(EventType.DEMAND.schema(), "pendingGpus");
        GenericRecord old = new GenericData.Record(earlier);
        GenericRecord current = TestEvents.avroRecord(EventTopics.DEMAND, DEMAND);
        for (Schema.Field field : earlier.getFields()) {
            old.put(field.name(), current.get(field.name()));
        }
        byte[] bytes = TestEvents.singleObject(old);
        EventDecoder knowsEarlier = new EventDecoder(TestEvents.CLOCK, Duration.ofMinutes(5),
                List.of(new AvroSingleObjectReader.WriterSchema(EventType.DEMAND, earlier)));
        Decoded decoded = knowsEarlier.decode(EventTopics.DEMAND, EventDecoder.AVRO, bytes);
        assertThat(decoded).isEqualTo(TestEvents.decoder().decode(EventTopics.DEMAND, EventDecoder.JSON,
                TestEvents.utf8(DEMAND)));
        assertThat(((DemandReported) ((Decoded.Ok) decoded).event()).pendingGpus()).isZero();
        assertThat(((Decoded.Rejected) TestEvents.decoder().decode(EventTopics.DEMAND, EventDecoder.AVRO, bytes))
                .rejection().reason()).as("a decoder that does not know that version")
                .isEqualTo(Rejection.Reason.SCHEMA_MISMATCH);
    }

    @Test
    void plainJsonFromANewerProducerDecodesIgnoringTheNewField() {
        Decoded decoded = TestEvents.decoder().decode(EventTopics.DEMAND, EventDecoder.JSON,
                TestEvents.utf8(DEMAND.replace("}", ",\"pendingFpgas\":2}")));
        assertThat(decoded).isEqualTo(
                TestEvents.decoder().decode(EventTopics.DEMAND, EventDecoder.JSON, TestEvents.utf8(DEMAND)));
    }

    private static Schema withoutField(Schema schema, String name) throws Exception {
        ObjectNode json = (ObjectNode) JSON.readTree(schema.toString());
        ArrayNode fields = (ArrayNode) json.get("fields");
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).get("name").asText().equals(name)) {
                fields.remove(i);
                break;
            }
        }
        return new Schema.Parser().parse(json.toString());
    }
}
