package io.fairledger.facts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

class FactCodecTest {

    private static final ResourceVector SIZE = ResourceVector.ofMillicores(1500, 4096, 1);
    /** Quotes, a backslash, a tab, a newline, a control character and non-ASCII text. */
    private static final String AWKWARD = "a\"b\\c\td\ne\u0001f é 漢 😀";

    @Test
    void everyKindOfFactReadsBackUnchanged() {
        List<LedgerFact> facts = List.of(
                new LedgerFact.Event(new LedgerEvent.TaskStarted("c1", "container_1", TenantPath.parse("root.a.b"),
                        "application_1", SIZE, 1_795_132_800_000L), LedgerFact.taskKey("container_1", true)),
                new LedgerFact.Event(new LedgerEvent.TaskStarted("c1", AWKWARD, TenantPath.parse("a/b"), AWKWARD,
                        SIZE, 5), LedgerFact.taskKey(AWKWARD, true)),
                new LedgerFact.Event(new LedgerEvent.TaskFinished("c1", "fw/task-7", 7), "task:fw/task-7:finish"),
                new LedgerFact.Event(new LedgerEvent.CapacityChanged("c1", SIZE, 9), "event:e9"),
                new LedgerFact.Event(new LedgerEvent.DemandChanged("c1", TenantPath.parse("root.q"), SIZE, 11),
                        "event:e11"),
                new LedgerFact.Event(new LedgerEvent.WeightChanged("c1", TenantPath.parse("root.q"), 2.5, 13),
                        "event:e13"),
                new LedgerFact.NodeCapacity("c1", "node-1:8041", ResourceVector.ZERO, 15, "event:e15"),
                new LedgerFact.Demand("c1", "root.q", "", SIZE, 17, "event:e17"));
        for (LedgerFact fact : facts) {
            assertThat(stored(fact, FactCodec.encode(fact))).as(FactCodec.encode(fact)).isEqualTo(fact);
        }
    }

    @Test
    void theStoredFormIsAFlatJsonObjectOfTheKindsOwnMembers() throws Exception {
        LedgerFact fact = new LedgerFact.Event(new LedgerEvent.TaskStarted("c1", "t", TenantPath.parse("root.a"), "app",
                SIZE, 42), "task:t:start");
        String text = FactCodec.encode(fact);
        assertThat(text).isEqualTo(
                "{\"task\":\"t\",\"tenant\":\"root.a\",\"application\":\"app\",\"millicores\":1500,"
                        + "\"memoryMb\":4096,\"gpus\":1}");
        JsonNode node = new ObjectMapper().readTree(text);
        assertThat(node.get("tenant").asText()).isEqualTo("root.a");
        assertThat(node.get("millicores").asLong()).isEqualTo(1500);
        assertThat(node.get("memoryMb").asLong()).isEqualTo(4096);
        assertThat(node.get("gpus").asLong()).isEqualTo(1);
        assertThat(FactCodec.kind(fact)).isEqualTo("TaskStarted");
        assertThat(FactCodec.encode(new LedgerFact.Event(new LedgerEvent.TaskFinished("c1", "t", 43), "task:t:finish")))
                .isEqualTo("{\"task\":\"t\"}");
    }

    /** A Mesos task's fraction of a MB is stored as the decimal it is, and read back exactly. */
    @Test
    void memoryWithAFractionOfAMbIsStoredAsItsDecimal() {
        for (long thousandths : new long[]{600_500, 1, 4_096_001, 0}) {
            LedgerFact fact = new LedgerFact.Event(new LedgerEvent.TaskStarted("c1", "fw/t", TenantPath.parse("a"),
                    "fw", new ResourceVector(500, thousandths, 0), 42), "task:fw/t:start");
            String text = FactCodec.encode(fact);
            assertThat(text).contains("\"memoryMb\":" + MemoryUnits.toMb(thousandths) + ",");
            assertThat(stored(fact, text)).isEqualTo(fact);
        }
        assertThat(FactCodec.encode(new LedgerFact.NodeCapacity("c1", "n", new ResourceVector(0, 600_500, 0), 1,
                "event:e1"))).isEqualTo("{\"node\":\"n\",\"millicores\":0,\"memoryMb\":600.5,\"gpus\":0}");
    }

    /** Rows stored before the common members became columns only repeat them in the JSON: they read the same. */
    @Test
    void theEarlierFormWithTheCommonMembersRepeatedReadsTheSame() {
        assertThat(FactCodec.decode("TaskStarted", "c1", 42, "task:t:start",
                "{\"kind\":\"TaskStarted\",\"cluster\":\"c1\",\"at\":42,\"key\":\"task:t:start\",\"task\":\"t\","
                        + "\"tenant\":\"root.a\",\"application\":\"app\",\"millicores\":1500,\"memoryMb\":4096,"
                        + "\"gpus\":1}"))
                .isEqualTo(new LedgerFact.Event(new LedgerEvent.TaskStarted("c1", "t", TenantPath.parse("root.a"),
                        "app", SIZE, 42), "task:t:start"));
        assertThat(FactCodec.decode("WeightChanged", "c1", 13, "event:e13", "{\"kind\":\"WeightChanged\",\"cluster\":"
                + "\"c1\",\"at\":13,\"key\":\"event:e13\",\"tenant\":\"root.q\",\"weight\":2.5}"))
                .isEqualTo(
                        new LedgerFact.Event(new LedgerEvent.WeightChanged("c1", TenantPath.parse("root.q"), 2.5, 13),
                                "event:e13"));
    }

    /** What another JSON writer would store (white space, other escapes, members reordered) reads the same. */
    @Test
    void anyJsonWriterFormReadsTheSame() {
        LedgerFact fact = new LedgerFact.Event(
                new LedgerEvent.TaskStarted("c1", "a/\u00e9\"", TenantPath.parse("root.q"),
                        "app", new ResourceVector(1500, 600_500, 1), 42),
                "task:a:start");
        for (String json : List.of(
                "{ \"task\" : \"a\\/\\u00e9\\\"\", \"tenant\":\"root.q\",\"application\":\"app\",\"millicores\":1500,"
                        + "\"memoryMb\":600.5,\"gpus\":1}",
                "{\"gpus\":1,\"memoryMb\":6.005E2,\"millicores\":1500,\"application\":\"app\",\"tenant\":\"root.q\","
                        + "\"task\":\"a/\\u00E9\\\"\",\"extra\":{\"nested\":[1,true,null]}}",
                "{\"task\":\"a/\u00e9\\\"\",\"tenant\":\"root.q\",\"application\":\"app\",\"millicores\":1500,"
                        + "\"memoryMb\":600.500,\"gpus\":1,\"kind\":null,\"at\":-4.5e-3}")) {
            assertThat(stored(fact, json)).as(json).isEqualTo(fact);
        }
    }

    /** Every string, however awkward, reads back as written, whether this codec or Jackson wrote it. */
    @Test
    void randomTextsReadBackAsWrittenByEitherWriter() {
        Random random = new Random(33);
        ObjectMapper jackson = new ObjectMapper();
        for (int round = 0; round < 2_000; round++) {
            String task = randomText(random);
            LedgerFact fact = new LedgerFact.Event(new LedgerEvent.TaskFinished("c1", task, round), "k");
            ObjectNode node = jackson.createObjectNode().put("task", task);
            assertThat(stored(fact, FactCodec.encode(fact))).isEqualTo(fact);
            assertThat(stored(fact, node.toString())).isEqualTo(fact);
        }
    }

    /** What JSON refuses is refused still: a trailing comma, a leading zero, a raw control character, a bad escape. */
    @Test
    void malformedTextIsRefused() {
        for (String json : List.of("{\"task\":\"t\",}", "{\"task\":01}", "{\"task\":\"a\u0001b\"}",
                "{\"task\":\"\\x\"}",
                "{\"task\":\"t\"", "{\"task\":t}", "{\"task\":}")) {
            assertThatThrownBy(() -> FactCodec.decode("TaskFinished", "c1", 1, "k", json)).as(json)
                    .isInstanceOf(UncheckedIOException.class);
        }
        assertThatThrownBy(() -> FactCodec.decode("TaskFinished", "c1", 1, "k", "[1]"))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> FactCodec.decode("TaskFinished", "c1", 1, "k", "{\"millicores\":1}"))
                .hasMessageContaining("no task");
    }

    private static String randomText(Random random) {
        char[] awkward = {'"', '\\', '/', '\n', '\t', '\u0001', '\u001f', 'e', '\u00e9', '\ud83d', '\ude00', ',', ':',
                '}'};
        StringBuilder text = new StringBuilder("t"); // never blank: a task id is not
        for (int i = random.nextInt(12); i > 0; i--) {
            text.append(awkward[random.nextInt(awkward.length)]);
        }
        return text.toString();
    }

    /** The fact as read back from its row: columns and JSON. */
    private static LedgerFact stored(LedgerFact fact, String json) {
        return FactCodec.decode(FactCodec.kind(fact), fact.clusterId(), fact.at(), fact.dedupeKey(), json);
    }
}
