package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/** Whatever bytes arrive, the decoder answers with a result and never throws. */
class GarbageNeverThrowsProperties {

    private final EventDecoder decoder = TestEvents.decoder();

    @Property(tries = 2000)
    void randomBytesNeverThrow(@ForAll @Size(max = 512) byte[] value, @ForAll("topics") String topic,
            @ForAll("contentTypes") String contentType) {
        assertThat(decoder.decode(topic, contentType, value)).isNotNull();
        assertThat(decoder.decodeJson(value)).isNotNull();
    }

    @Property(tries = 2000)
    void randomAvroBodiesBehindAKnownFingerprintNeverThrow(@ForAll @Size(max = 512) byte[] body,
            @ForAll EventType type) {
        byte[] value = ByteBuffer.allocate(AvroSingleObjectReader.HEADER_LENGTH + body.length)
                .order(ByteOrder.LITTLE_ENDIAN).put(AvroSingleObjectReader.MARKER_0)
                .put(AvroSingleObjectReader.MARKER_1).putLong(type.fingerprint()).put(body).array();
        Decoded decoded = decoder.decode(type.topic(), (String) null, value);
        assertThat(decoded).isNotNull();
        if (decoded instanceof Decoded.Rejected rejected) {
            assertThat(rejected.rejection().reason()).isNotEqualTo(Rejection.Reason.SCHEMA_MISMATCH);
        }
    }

    @Property(tries = 2000)
    void mutatedExamplesNeverThrow(@ForAll("examples") String[] topicAndLine, @ForAll boolean asAvro,
            @ForAll("mutations") int[] mutations) throws Exception {
        byte[] value = asAvro
                ? TestEvents.singleObject(TestEvents.avroRecord(topicAndLine[0], topicAndLine[1]))
                : TestEvents.utf8(topicAndLine[1]);
        for (int i = 0; i + 1 < mutations.length; i += 2) {
            int at = Math.floorMod(mutations[i], value.length);
            value[at] = (byte) mutations[i + 1];
        }
        assertThat(decoder.decode(topicAndLine[0], (String) null, value)).isNotNull();
    }

    @Provide
    Arbitrary<String> topics() {
        return Arbitraries.of(EventTopics.ALL.toArray(String[]::new));
    }

    @Provide
    Arbitrary<String> contentTypes() {
        return Arbitraries.of(null, EventDecoder.JSON, EventDecoder.AVRO, "text/plain");
    }

    @Provide
    Arbitrary<String[]> examples() {
        return SchemaTestFiles.exampleLines();
    }

    @Provide
    Arbitrary<int[]> mutations() {
        return Arbitraries.integers().array(int[].class).ofMinSize(2).ofMaxSize(8);
    }
}
