package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The content-type header selects the encoding; without it the single-object marker decides. */
class ContentTypeTest {

    private static final String JSON = "{\"eventId\":\"k1\",\"cluster\":\"c1\",\"eventTime\":\"2026-11-22T09:00:00Z\","
            + "\"change\":\"TOTALS\",\"cpus\":8,\"memoryMb\":17408}";

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void kafkaHeadersSelectTheEncoding() throws Exception {
        byte[] avro = TestEvents.singleObject(TestEvents.avroRecord(EventTopics.CAPACITY, JSON));
        Decoded fromJson = decoder.decode(EventTopics.CAPACITY, headers(EventDecoder.JSON), TestEvents.utf8(JSON));
        assertThat(fromJson.isOk()).isTrue();
        assertThat(decoder.decode(EventTopics.CAPACITY, headers(EventDecoder.AVRO), avro)).isEqualTo(fromJson);
        assertThat(decoder.decode(EventTopics.CAPACITY, new RecordHeaders(), avro)).isEqualTo(fromJson);
        assertThat(decoder.decode(EventTopics.CAPACITY, (RecordHeaders) null, TestEvents.utf8(JSON)))
                .isEqualTo(fromJson);
    }

    @Test
    void theHeaderIsBelievedOverTheBytes() throws Exception {
        byte[] avro = TestEvents.singleObject(TestEvents.avroRecord(EventTopics.CAPACITY, JSON));
        Decoded avroAsJson = decoder.decode(EventTopics.CAPACITY, headers(EventDecoder.JSON), avro);
        assertThat(((Decoded.Rejected) avroAsJson).rejection().describe()).startsWith("undecodable: not JSON");
        Decoded jsonAsAvro = decoder.decode(EventTopics.CAPACITY, headers(EventDecoder.AVRO), TestEvents.utf8(JSON));
        assertThat(((Decoded.Rejected) jsonAsAvro).rejection().describe()).isEqualTo(
                "undecodable: not Avro single-object encoding: the value does not start with the marker C3 01");
    }

    @Test
    void otherHeadersAreIgnored() {
        RecordHeaders headers = headers(EventDecoder.JSON);
        headers.add("traceparent", TestEvents.utf8("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
        assertThat(decoder.decode(EventTopics.CAPACITY, headers, TestEvents.utf8(JSON)).isOk()).isTrue();
    }

    private static RecordHeaders headers(String contentType) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(EventDecoder.CONTENT_TYPE_HEADER, TestEvents.utf8(contentType));
        return headers;
    }
}
