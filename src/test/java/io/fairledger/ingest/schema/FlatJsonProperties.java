package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The flat fast path of the plain JSON encoding ({@link FlatJson}) gives exactly the event the tree gives, and leaves
 * every rejection to the tree: examples with JSON-like characters changed decode to the same result both ways.
 */
class FlatJsonProperties {

    private static final String YARN = "{\"type\":\"YarnContainerEvent\",\"eventId\":\"e1\",\"cluster\":\"c1\","
            + "\"eventTime\":1795132800000,\"applicationId\":\"application_1_1\",\"attemptId\":\"appattempt_1_1_1\","
            + "\"containerId\":\"container_1\",\"queue\":\"root.a\",\"user\":\"u\",\"allocatedMemoryMb\":2048,"
            + "\"allocatedVcores\":1,\"node\":\"n1:8041\",\"state\":\"RUNNING\",\"createdTime\":1795132800000%s}";

    private final EventDecoder decoder = TestEvents.decoder();

    @Property(tries = 3000)
    void changedExamplesDecodeAsTheTreeDecodesThem(@ForAll("examples") String[] topicAndLine,
            @ForAll("changes") int[] changes) {
        char[] text = topicAndLine[1].toCharArray();
        for (int i = 0; i + 1 < changes.length; i += 2) {
            text[Math.floorMod(changes[i], text.length)] = ALPHABET.charAt(Math.floorMod(changes[i + 1],
                    ALPHABET.length()));
        }
        assertSameBothWays(topicAndLine[0], new String(text));
    }

    @Test
    void theExamplesTakeTheFastPath() {
        for (java.nio.file.Path file : SchemaTestFiles.exampleFiles()) {
            for (String line : SchemaTestFiles.lines(file)) {
                boolean nested = line.contains("[") || line.substring(1).contains("{");
                assertThat(FlatJson.read(new com.fasterxml.jackson.core.JsonFactory(), TestEvents.utf8(line)) != null)
                        .as(line).isEqualTo(!nested);
            }
        }
    }

    @Test
    void aDuplicateMemberTakesTheTreesWayWhichRejectsIt() {
        com.fasterxml.jackson.core.JsonFactory plain = new com.fasterxml.jackson.core.JsonFactory();
        assertThat(FlatJson.read(plain, TestEvents.utf8("{\"a\":1,\"b\":2,\"a\":1}"))).isNull();
        assertThat(FlatJson.read(plain, TestEvents.utf8("{\"a\":1,\"b\":2}")).get("b").asInt()).isEqualTo(2);
    }

    @Test
    void edgeCasesDecodeAsTheTreeDecodesThem() {
        List<String> extras = List.of("", ",\"exitStatus\":null", ",\"exitStatus\":0", ",\"exitStatus\":-0",
                ",\"exitStatus\":2147483648", ",\"exitStatus\":1.0", ",\"exitStatus\":true", ",\"exitStatus\":\"1\"",
                ",\"allocatedGpus\":null", ",\"allocatedGpus\":99999999999999999999", ",\"finishedTime\":\"x\"",
                ",\"finishedTime\":\"2026-11-22T10:00:00+01:00\"", ",\"finishedTime\":1e3",
                ",\"unknown\":{\"a\":[1,2]}", ",\"unknown\":[]", ",\"unknown\":1e400", ",\"cluster\":\"c2\"",
                ",\"unknown\":1,\"unknown\":2", ",\"node\":null", ",\"user\":\"\"", ",\"state\":\"NEW\"",
                ",\"state\":\"running\"", ",\"type\":null", ",\"allocatedMemoryMb\":2048.5",
                ",\"allocatedMemoryMb\":-1", ",\"eventTime\":\"2026-11-22T09:00:00Z\"", ",\"u\":\"\\u00e9\\n\"",
                "} ", "}}", "} {}", ",\"task_id\":\"t\"");
        for (String extra : extras) {
            assertSameBothWays(EventTopics.YARN_CONTAINERS, YARN.formatted(extra));
            assertSameBothWays(EventTopics.YARN_CONTAINERS, YARN.replace("\"type\":\"YarnContainerEvent\",", "")
                    .formatted(extra));
        }
        assertSameBothWays(EventTopics.JOBS, "{\"eventId\":\"j\",\"cluster\":\"c\",\"eventTime\":1795132800000,"
                + "\"jobId\":\"j\",\"tenant\":\"t\",\"requestedTasks\":1}");
        assertSameBothWays(EventTopics.MESOS_TASKS, "{\"task_id\":\"t\",\"state\":\"TASK_RUNNING\",\"cluster\":\"c\","
                + "\"timestamp\":1795132800.5}");
    }

    /** The decoder's result equals the tree's: the same event, or the same rejection. */
    private void assertSameBothWays(String topic, String json) {
        byte[] value = TestEvents.utf8(json);
        assertThat(decoder.decode(topic, EventDecoder.JSON, value)).as(json)
                .isEqualTo(decoder.decodeThroughTree(topic, EventDecoder.JSON, value));
    }

    private static final String ALPHABET = "0123456789-+.eE \"\\,:{}[]ntrufalsxyzTYPE_";

    @Provide
    Arbitrary<String[]> examples() {
        return SchemaTestFiles.exampleLines();
    }

    @Provide
    Arbitrary<int[]> changes() {
        return Arbitraries.integers().array(int[].class).ofMinSize(2).ofMaxSize(4);
    }
}
