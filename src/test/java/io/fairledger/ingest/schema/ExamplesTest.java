package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Every example in kafka-schemas/examples/ (one file per topic, one JSON event per line) decodes and validates, with
 * and without the content-type header, through the offline entry point too, and encodes to Avro single-object bytes
 * that decode to the same event.
 */
class ExamplesTest {

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void thereIsAnExampleFileForEveryTopicAndAnExampleOfEveryType() {
        Set<EventType> seen = EnumSet.noneOf(EventType.class);
        for (Path file : SchemaTestFiles.exampleFiles()) {
            String topic = SchemaTestFiles.topicOf(file);
            assertThat(EventTopics.ALL).as("example file %s names a topic", file.getFileName()).contains(topic);
            for (String line : SchemaTestFiles.lines(file)) {
                Decoded decoded = decoder.decode(topic, EventDecoder.JSON, TestEvents.utf8(line));
                if (decoded instanceof Decoded.Ok ok) {
                    seen.add(EventEncoder.typeOf(ok.event()));
                }
            }
        }
        assertThat(SchemaTestFiles.exampleFiles().stream().map(SchemaTestFiles::topicOf))
                .containsExactlyInAnyOrderElementsOf(EventTopics.ALL);
        assertThat(seen).containsExactlyInAnyOrder(EventType.values());
    }

    @Test
    void everyExampleDecodesWithAndWithoutTheJsonHeader() {
        for (Path file : SchemaTestFiles.exampleFiles()) {
            String topic = SchemaTestFiles.topicOf(file);
            for (String line : SchemaTestFiles.lines(file)) {
                Decoded withHeader = decoder.decode(topic, EventDecoder.JSON, TestEvents.utf8(line));
                assertThat(withHeader).as("%s: %s", file.getFileName(), line).isInstanceOf(Decoded.Ok.class);
                assertThat(decoder.decode(topic, (String) null, TestEvents.utf8(line))).isEqualTo(withHeader);
                assertThat(decoder.decode(topic, "application/json; charset=utf-8", TestEvents.utf8(line)))
                        .isEqualTo(withHeader);
            }
        }
    }

    /** What {@code fairledger replay} routes by: every example, Mesos operator shapes included, finds its file's topic. */
    @Test
    void everyExampleIsRoutedToItsTopicOutsideATopic() throws Exception {
        ObjectMapper json = new ObjectMapper();
        for (Path file : SchemaTestFiles.exampleFiles()) {
            for (String line : SchemaTestFiles.lines(file)) {
                assertThat(EventType.ofJson(json.readTree(line)).map(EventType::topic)).as("%s: %s",
                        file.getFileName(), line).contains(SchemaTestFiles.topicOf(file));
            }
        }
        assertThat(EventType.ofJson(json.readTree("{\"type\":\"TASK_GONE\"}"))).isEmpty();
        assertThat(EventType.ofJson(json.readTree("{\"cluster\":\"c\"}"))).isEmpty();
    }

    @Test
    void everyExampleDecodesOfflineByItsTypeMember() {
        for (Path file : SchemaTestFiles.exampleFiles()) {
            String topic = SchemaTestFiles.topicOf(file);
            for (String line : SchemaTestFiles.lines(file)) {
                assertThat(decoder.decodeJson(TestEvents.utf8(line))).as("%s: %s", file.getFileName(), line)
                        .isEqualTo(decoder.decode(topic, EventDecoder.JSON, TestEvents.utf8(line)));
            }
        }
    }

    @Test
    void avroBinaryRoundTripEqualsJsonDecodeForEveryExample() throws Exception {
        Set<EventType> roundTripped = EnumSet.noneOf(EventType.class);
        for (Path file : SchemaTestFiles.exampleFiles()) {
            String topic = SchemaTestFiles.topicOf(file);
            for (String line : SchemaTestFiles.lines(file)) {
                Decoded fromJson = decoder.decode(topic, EventDecoder.JSON, TestEvents.utf8(line));
                GenericRecord record = TestEvents.avroRecord(topic, line);
                byte[] avro = TestEvents.singleObject(record);
                assertThat(avro[0]).isEqualTo((byte) 0xC3);
                assertThat(decoder.decode(topic, EventDecoder.AVRO, avro)).as(line).isEqualTo(fromJson);
                assertThat(decoder.decode(topic, (String) null, avro)).as("no header: sniffed").isEqualTo(fromJson);
                assertThat(decoder.decode(topic, "avro/binary", avro)).isEqualTo(fromJson);
                roundTripped.add(EventEncoder.typeOf(((Decoded.Ok) fromJson).event()));
            }
        }
        assertThat(roundTripped).containsExactlyInAnyOrder(EventType.values());
    }

    @Test
    void encodingADecodedEventGivesItBack() {
        EventEncoder encoder = new EventEncoder();
        for (Path file : SchemaTestFiles.exampleFiles()) {
            String topic = SchemaTestFiles.topicOf(file);
            for (String line : SchemaTestFiles.lines(file)) {
                Decoded decoded = decoder.decode(topic, EventDecoder.JSON, TestEvents.utf8(line));
                byte[] avro = encoder.toAvro(((Decoded.Ok) decoded).event());
                assertThat(decoder.decode(topic, EventDecoder.AVRO, avro)).as(line).isEqualTo(decoded);
            }
        }
    }
}
