package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.util.Utf8;
import org.junit.jupiter.api.Test;

/**
 * Ids are kept exactly as sent or refused with a reason, never altered: so two distinct ids never become one (the
 * second would be dropped as a duplicate of the first and its usage lost). Ids are arbitrary UTF-16 strings here,
 * control characters and lone surrogates included, sent as JSON {@code \\uXXXX} escapes so that every one of them
 * reaches the decoder as it is.
 */
class PlainTextIdsProperties {

    private final EventDecoder decoder = TestEvents.decoder();

    @Property(tries = 3000)
    void anAcceptedIdIsKeptExactlyAndSurvivesUtf8(@ForAll("ids") String id) {
        Decoded decoded = decoder.decodeJson(TestEvents.utf8(container(id)));
        if (decoded instanceof Decoded.Ok ok) {
            String kept = ((YarnContainerEvent) ok.event()).containerId();
            assertThat(kept).isEqualTo(id);
            assertThat(new String(kept.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                    .as("stored as UTF-8 (PostgreSQL text) and read back").isEqualTo(id);
        } else {
            assertThat(((Decoded.Rejected) decoded).rejection().describe()).startsWith("invalid-field: containerId: ");
        }
    }

    @Property(tries = 3000)
    void distinctIdsNeverCollapse(@ForAll("ids") String a, @ForAll("ids") String b) {
        Assume.that(!a.equals(b));
        Decoded first = decoder.decodeJson(TestEvents.utf8(container(a)));
        Decoded second = decoder.decodeJson(TestEvents.utf8(container(b)));
        if (first instanceof Decoded.Ok x && second instanceof Decoded.Ok y) {
            byte[] storedX = ((YarnContainerEvent) x.event()).containerId().getBytes(StandardCharsets.UTF_8);
            byte[] storedY = ((YarnContainerEvent) y.event()).containerId().getBytes(StandardCharsets.UTF_8);
            assertThat(storedX).isNotEqualTo(storedY);
        }
    }

    @Test
    void theLoneSurrogatesOfTheReportAreRefusedNotMergedIntoOneId() {
        for (String id : new String[]{"container_S\ud800", "container_S\ud801", "container_S\udfff"}) {
            Decoded decoded = decoder.decodeJson(TestEvents.utf8(container(id)));
            assertThat(decoded).isInstanceOf(Decoded.Rejected.class);
            assertThat(((Decoded.Rejected) decoded).rejection().describe())
                    .startsWith("invalid-field: containerId: contains an unpaired UTF-16 surrogate U+D")
                    .endsWith("at index 11 (it has no UTF-8 form and would be stored as another character)");
        }
        assertThat(decoder.decodeJson(TestEvents.utf8(container("container_S\ud83d\ude00"))))
                .as("a surrogate pair is a character like any other").isInstanceOf(Decoded.Ok.class);
    }

    @Test
    void aNulOrATerminalEscapeInAnIdIsRefusedWithItsReason() {
        Decoded nul = decoder.decodeJson(TestEvents.utf8(container("container_\u0000")));
        assertThat(((Decoded.Rejected) nul).rejection().describe()).isEqualTo(
                "invalid-field: containerId: contains the control character U+0000 at index 10 (NUL cannot be stored)");
        Decoded escape = decoder.decodeJson(TestEvents.utf8(container("\u001b[31mcontainer_1")));
        assertThat(((Decoded.Rejected) escape).rejection().describe()).startsWith(
                "invalid-field: containerId: contains the control character U+001B at index 0");
        Decoded queue = decoder.decodeJson(TestEvents.utf8(container("c1").replace("root.a", "root.a ")));
        assertThat(((Decoded.Rejected) queue).rejection().describe()).isEqualTo(
                "invalid-field: queue: starts or ends with white space; a tenant path is taken as written");
    }

    @Test
    void avroStringsThatAreNotUtf8AreRefusedNotReplaced() throws RejectedException {
        GenericRecord record = TestEvents.avroRecord(EventTopics.YARN_CONTAINERS, container("c1"));
        // an encoded lone surrogate (CESU-8 ED A0 80): a decoder that replaces it gives U+FFFD for every such id
        record.put("containerId", new Utf8(new byte[]{'c', (byte) 0xED, (byte) 0xA0, (byte) 0x80}));
        Decoded decoded = decoder.decode(EventTopics.YARN_CONTAINERS, EventDecoder.AVRO,
                TestEvents.singleObject(record));
        assertThat(decoded).isInstanceOf(Decoded.Rejected.class);
        assertThat(((Decoded.Rejected) decoded).rejection().describe()).startsWith("undecodable: ")
                .contains("not valid UTF-8");
    }

    @Provide
    Arbitrary<String> ids() {
        Arbitrary<Character> any = Arbitraries.chars().range('\u0000', '\uffff');
        Arbitrary<Character> tricky = Arbitraries.of('\u0000', '\u001b', '\u007f', '\u0085', '\ud800', '\udbff',
                '\udc00', '\udfff', '\u2028', '\u202e', '\ufffd', '?', 'a', '\u00e9');
        return Arbitraries.frequencyOf(Tuple.of(1, any), Tuple.of(2, tricky)).list()
                .ofMinSize(1).ofMaxSize(8).map(chars -> {
                    StringBuilder out = new StringBuilder("c");
                    chars.forEach(out::append);
                    return out.toString();
                });
    }

    /** A YARN container event with {@code id}, every character of which is written as a JSON escape. */
    private static String container(String id) {
        StringBuilder escaped = new StringBuilder();
        for (char c : id.toCharArray()) {
            escaped.append(String.format("\\u%04x", (int) c));
        }
        return "{\"type\":\"YarnContainerEvent\",\"eventId\":\"e1\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T00:00:00Z\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":\"" + escaped + "\",\"queue\":\"root.a\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":0,\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"ALLOCATED\"}";
    }
}
