package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.RegistryFrame.IdKind;
import io.fairledger.ingest.schema.RegistryFrame.PayloadId;

/** The schema-registry wire formats: magic byte and id in the value, or the id in an Apicurio header. */
class RegistryFrameTest {

    private static final String YARN = TestEventLines.YARN;

    @Test
    void confluentFramingIsTheMagicByteAFourByteIdAndTheBody() throws Exception {
        byte[] value = {0, 0, 0, 1, 2, 42, 43};
        assertThat(RegistryFrame.fromPayload(value, PayloadId.CONTENT_ID))
                .isEqualTo(new RegistryFrame(IdKind.CONTENT_ID, 258, 5));
    }

    @Test
    void aFourByteIdIsUnsigned() throws Exception {
        byte[] value = {0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 42};
        assertThat(RegistryFrame.fromPayload(value, PayloadId.CONTENT_ID).id()).isEqualTo(4_294_967_295L);
    }

    @Test
    void apicurioTwoWithoutHeadersWritesAnEightByteGlobalId() throws Exception {
        byte[] value = ByteBuffer.allocate(11).put((byte) 0).putLong(7_000_000_000L).put((byte) 1).put((byte) 2)
                .array();
        assertThat(RegistryFrame.fromPayload(value, PayloadId.GLOBAL_ID))
                .isEqualTo(new RegistryFrame(IdKind.GLOBAL_ID, 7_000_000_000L, 9));
    }

    @Test
    void aTruncatedFrameIsRejectedSayingWhatIsMissing() {
        for (byte[] value : new byte[][]{{0}, {0, 0, 0}, {0, 0, 0, 0, 7}}) {
            assertThatThrownBy(() -> RegistryFrame.fromPayload(value, PayloadId.CONTENT_ID))
                    .isInstanceOfSatisfying(RejectedException.class, e -> assertThat(e.rejection().describe())
                            .isEqualTo("undecodable: schema-registry frame truncated: " + value.length
                                    + " byte(s), need the magic byte, the 4-byte content id and an Avro body"));
        }
        assertThatThrownBy(() -> RegistryFrame.fromPayload(new byte[]{0, 0, 0, 0, 0, 0, 0, 0, 1}, PayloadId.GLOBAL_ID))
                .hasMessageContaining("9 byte(s), need the magic byte, the 8-byte global id and an Avro body");
    }

    @Test
    void aWrongMagicByteIsRejected() {
        assertThatThrownBy(() -> RegistryFrame.fromPayload(new byte[]{1, 0, 0, 0, 7, 42}, PayloadId.CONTENT_ID))
                .isInstanceOfSatisfying(RejectedException.class, e -> assertThat(e.rejection().describe()).isEqualTo(
                        "undecodable: not schema-registry framing: the value starts with 0x01, not the magic byte 0x00"));
        assertThatThrownBy(() -> RegistryFrame.fromPayload(new byte[0], PayloadId.CONTENT_ID))
                .hasMessageContaining("the value is empty, not the magic byte 0x00");
    }

    @Test
    void apicurioHeadersCarryAnEightByteIdAndTheWholeValueIsTheBody() throws Exception {
        RecordHeaders headers = new RecordHeaders();
        assertThat(RegistryFrame.fromHeaders(headers)).isNull();
        assertThat(RegistryFrame.fromHeaders(null)).isNull();
        headers.add(RegistryFrame.CONTENT_ID_HEADER, ByteBuffer.allocate(8).putLong(5).array());
        assertThat(RegistryFrame.fromHeaders(headers)).isEqualTo(new RegistryFrame(IdKind.CONTENT_ID, 5, 0));
        headers.add(RegistryFrame.GLOBAL_ID_HEADER, ByteBuffer.allocate(8).putLong(9).array());
        assertThat(RegistryFrame.fromHeaders(headers)).as("the global id when both are given")
                .isEqualTo(new RegistryFrame(IdKind.GLOBAL_ID, 9, 0));
        headers.add(RegistryFrame.ENCODING_HEADER, "BINARY".getBytes(StandardCharsets.UTF_8));
        assertThat(RegistryFrame.fromHeaders(headers)).isEqualTo(new RegistryFrame(IdKind.GLOBAL_ID, 9, 0));
    }

    @Test
    void aMalformedIdHeaderOrAvrosJsonEncodingIsRejected() {
        RecordHeaders shortId = new RecordHeaders();
        shortId.add(RegistryFrame.GLOBAL_ID_HEADER, new byte[]{0, 0, 0, 9});
        assertThatThrownBy(() -> RegistryFrame.fromHeaders(shortId))
                .isInstanceOfSatisfying(RejectedException.class, e -> assertThat(e.rejection().describe()).isEqualTo(
                        "undecodable: apicurio.value.globalId: expected an 8-byte big-endian id, got 4 byte(s)"));
        RecordHeaders json = new RecordHeaders();
        json.add(RegistryFrame.GLOBAL_ID_HEADER, ByteBuffer.allocate(8).putLong(9).array());
        json.add(RegistryFrame.ENCODING_HEADER, "JSON".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> RegistryFrame.fromHeaders(json)).hasMessageContaining("only Avro's binary encoding");
    }

    @Test
    void withoutARegistryAFramedValueIsADeadLetterSayingWhatToConfigure() {
        byte[] value = {0, 0, 0, 0, 7, 42};
        Decoded decoded = TestEvents.decoder().decode(YARN, (String) null, value);
        assertThat(((Decoded.Rejected) decoded).rejection().describe()).isEqualTo("undecodable: framed by a schema"
                + " registry serializer (content id 7), but no schema registry is configured"
                + " (fairledger.ingest.registry.url)");
        assertThat(EventDecoder.isRegistryFramed(null, value)).isTrue();
        assertThat(EventDecoder.isRegistryFramed(null, TestEvents.utf8("{}"))).isFalse();
    }

    @Test
    void underAJsonContentTypeALeadingZeroIsBadJsonNotAFrame() {
        Decoded decoded = TestEvents.decoder().decode(YARN, EventDecoder.JSON, new byte[]{0, 0, 0, 0, 7, 42});
        assertThat(((Decoded.Rejected) decoded).rejection().describe()).startsWith("undecodable: not JSON");
    }
}
