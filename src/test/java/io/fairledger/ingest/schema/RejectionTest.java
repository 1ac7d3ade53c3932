package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;

import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.Rejection.Reason;

/** Each rejection reason, produced on purpose, with the field it names. */
class RejectionTest {

    private static final String DEMAND = "{\"eventId\":\"d1\",\"cluster\":\"c1\",\"eventTime\":\"2026-11-22T09:00:00Z\","
            + "\"tenant\":\"root.a\",\"pendingCpus\":4,\"pendingMemoryMb\":4096%s}";
    private static final String YARN = "{\"eventId\":\"y1\",\"cluster\":\"c1\",\"eventTime\":\"2026-11-22T09:00:00Z\","
            + "\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_000001\","
            + "\"containerId\":\"container_1_0001_01_000002\",\"queue\":\"root.a\",\"user\":\"u\","
            + "\"allocatedMemoryMb\":1024,\"allocatedVcores\":1,\"state\":\"RUNNING\"%s}";

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void unknownTopic() {
        assertRejected(decoder.decode("fairledger.nope", EventDecoder.JSON, TestEvents.utf8(demand(""))),
                Reason.UNKNOWN_TOPIC, null, "\"fairledger.nope\" is not a fairledger event topic");
    }

    @Test
    void unsupportedContentType() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("Content-Type", TestEvents.utf8("text/csv"));
        assertRejected(decoder.decode(EventTopics.DEMAND, headers, TestEvents.utf8(demand(""))),
                Reason.UNSUPPORTED_CONTENT_TYPE, "content-type", "\"text/csv\"");
    }

    @Test
    void contentTypeHeaderIsMatchedWithoutRegardToCase() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("Content-Type", TestEvents.utf8("Application/JSON"));
        assertThat(decoder.decode(EventTopics.DEMAND, headers, TestEvents.utf8(demand(""))).isOk()).isTrue();
    }

    @Test
    void undecodableJson() {
        assertRejected(demandJson("{\"eventId\":"), Reason.UNDECODABLE, null, "not JSON");
        assertRejected(demandJson("{\"a\":1} {\"b\":2}"), Reason.UNDECODABLE, null, "not JSON");
        assertRejected(demandJson("{\"a\":1,\"a\":2}"), Reason.UNDECODABLE, null, "Duplicate field 'a'");
        assertRejected(demandJson("[1,2]"), Reason.UNDECODABLE, null, "expected a JSON object, got array");
        assertRejected(demandJson("   "), Reason.UNDECODABLE, null, "the value is empty");
        assertRejected(decoder.decode(EventTopics.DEMAND, EventDecoder.JSON, new byte[0]), Reason.UNDECODABLE, null,
                "the record has no value");
        assertRejected(decoder.decode(EventTopics.DEMAND, EventDecoder.JSON, null), Reason.UNDECODABLE, null,
                "the record has no value");
        assertRejected(decoder.decode(EventTopics.DEMAND, EventDecoder.JSON, new byte[]{(byte) 0xC3, 0x28}),
                Reason.UNDECODABLE, null, "not JSON");
        String deep = "{\"eventId\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";
        assertRejected(demandJson(deep), Reason.UNDECODABLE, null, "nesting depth");
    }

    @Test
    void undecodableAvro() throws Exception {
        byte[] valid = TestEvents.singleObject(TestEvents.avroRecord(EventTopics.DEMAND, demand("")));
        assertRejected(avro(EventTopics.DEMAND, TestEvents.utf8(demand(""))), Reason.UNDECODABLE, null,
                "does not start with the marker C3 01");
        assertRejected(avro(EventTopics.DEMAND, Arrays.copyOf(valid, 6)), Reason.UNDECODABLE, null,
                "header truncated: 6 bytes");
        assertRejected(avro(EventTopics.DEMAND, Arrays.copyOf(valid, valid.length - 3)), Reason.UNDECODABLE, null,
                "Avro body is not a valid DemandReported record");
        byte[] longer = Arrays.copyOf(valid, valid.length + 1);
        assertRejected(avro(EventTopics.DEMAND, longer), Reason.UNDECODABLE, null, "trailing bytes");
    }

    @Test
    void corruptLengthPrefixIsRejectedWithoutAllocatingIt() throws Exception {
        byte[] valid = TestEvents.singleObject(TestEvents.avroRecord(EventTopics.DEMAND, demand("")));
        byte[] corrupt = valid.clone();
        // the body starts with eventId's length, a zig-zag varint: 0xFE 0xFF 0xFF 0xFF 0x0F is 2^31 - 1
        byte[] huge = {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F};
        byte[] spliced = new byte[corrupt.length + huge.length - 1];
        System.arraycopy(corrupt, 0, spliced, 0, AvroSingleObjectReader.HEADER_LENGTH);
        System.arraycopy(huge, 0, spliced, AvroSingleObjectReader.HEADER_LENGTH, huge.length);
        System.arraycopy(corrupt, AvroSingleObjectReader.HEADER_LENGTH + 1, spliced,
                AvroSingleObjectReader.HEADER_LENGTH + huge.length,
                corrupt.length - AvroSingleObjectReader.HEADER_LENGTH - 1);
        assertRejected(avro(EventTopics.DEMAND, spliced), Reason.UNDECODABLE, null,
                "string length 2147483647 is impossible");
    }

    @Test
    void schemaMismatchUnknownWriterSchema() throws Exception {
        Schema other = new Schema.Parser().parse("{\"type\":\"record\",\"name\":\"Other\",\"fields\":[]}");
        byte[] bytes = TestEvents.singleObject(new GenericData.Record(other));
        assertRejected(avro(EventTopics.DEMAND, bytes), Reason.SCHEMA_MISMATCH, null, String.format(
                "writer schema fingerprint %016x is not a known fairledger v1 schema",
                SchemaNormalization.parsingFingerprint64(other)));
    }

    @Test
    void schemaMismatchRecordOnTheWrongTopic() throws Exception {
        byte[] demand = TestEvents.singleObject(TestEvents.avroRecord(EventTopics.DEMAND, demand("")));
        assertRejected(avro(EventTopics.CAPACITY, demand), Reason.SCHEMA_MISMATCH, null,
                "a DemandReported record does not belong on fairledger.capacity");
        assertRejected(decoder.decode(EventTopics.CAPACITY, EventDecoder.JSON,
                TestEvents.utf8("{\"type\":\"DemandReported\"," + demand("").substring(1))), Reason.SCHEMA_MISMATCH,
                "type", "\"DemandReported\" does not belong on fairledger.capacity");
        assertRejected(decoder.decodeJson(TestEvents.utf8("{\"type\":\"Nope\"}")), Reason.SCHEMA_MISMATCH, "type",
                "\"Nope\" is not an event type");
    }

    @Test
    void missingRequiredFields() {
        assertRejected(demandJson(demand("").replace("\"eventId\":\"d1\",", "")), Reason.MISSING_FIELD, "eventId",
                "required field is absent");
        assertRejected(demandJson(demand("").replace("\"d1\"", "null")), Reason.MISSING_FIELD, "eventId",
                "required field is null");
        assertRejected(demandJson(demand("").replace("\"d1\"", "\" \"")), Reason.MISSING_FIELD, "eventId",
                "required and must not be blank");
        assertRejected(demandJson(demand("").replace("\"cluster\":\"c1\",", "")), Reason.MISSING_FIELD, "cluster",
                "required field is absent");
        assertRejected(demandJson(demand("").replace("\"eventTime\":\"2026-11-22T09:00:00Z\",", "")),
                Reason.MISSING_FIELD, "eventTime", "required field is absent");
        assertRejected(decoder.decode(EventTopics.JOBS, EventDecoder.JSON, TestEvents.utf8(demand(""))),
                Reason.MISSING_FIELD, "type", "fairledger.jobs carries [JobSubmitted, JobFinished]");
        assertRejected(decoder.decodeJson(TestEvents.utf8(demand(""))), Reason.MISSING_FIELD, "type",
                "required outside a topic");
        assertRejected(capacity("\"NODE_ADDED\"", ""), Reason.MISSING_FIELD, "node",
                "required when change is NODE_ADDED");
    }

    @Test
    void invalidFieldValues() {
        assertRejected(demandJson(demand("").replace("4096", "\"4096\"")), Reason.INVALID_FIELD, "pendingMemoryMb",
                "expected a 64-bit integer, got the string \"4096\"");
        assertRejected(demandJson(demand("").replace("4096", "4096.5")), Reason.INVALID_FIELD, "pendingMemoryMb",
                "expected a 64-bit integer");
        assertRejected(demandJson(demand("").replace("\"2026-11-22T09:00:00Z\"", "\"yesterday\"")),
                Reason.INVALID_FIELD, "eventTime", "expected an ISO-8601 instant");
        assertRejected(demandJson(demand("").replace("\"2026-11-22T09:00:00Z\"", "1795251600")),
                Reason.INVALID_FIELD, "eventTime", "epoch seconds where milliseconds are expected?");
        assertRejected(yarnRaw(yarnJson("").replace("\"RUNNING\"", "\"SLEEPING\"")), Reason.INVALID_FIELD, "state",
                "expected one of [NEW, RESERVED");
        assertRejected(yarn(",\"startedTime\":\"2026-11-22T09:00:00Z\",\"finishedTime\":\"2026-11-22T08:00:00Z\""),
                Reason.INVALID_FIELD, "finishedTime", "is before startedTime");
        assertRejected(yarn(",\"node\":\"\""), Reason.INVALID_FIELD, "node", "blank; omit it or give null");
        assertRejected(capacity("\"NODE_ADDED\"", ",\"node\":7"), Reason.INVALID_FIELD, "node",
                "expected a string, got 7");
        assertRejected(jobSubmitted(",\"relativeDeadlineSeconds\":0"), Reason.INVALID_FIELD, "relativeDeadlineSeconds",
                "must be positive");
        assertRejected(jobSubmitted(",\"relativeDeadlineSeconds\":" + (ResourceLimits.MAX_DEADLINE_SECONDS + 1)),
                Reason.INVALID_FIELD, "relativeDeadlineSeconds", "more than the limit of ten years");
        assertRejected(jobsRaw(jobSubmittedJson("").replace("job-1", "j".repeat(ResourceLimits.MAX_ID_LENGTH + 1))),
                Reason.INVALID_FIELD, "jobId", "513 characters");
    }

    @Test
    void yarnStateFromANewerSchemaIsRejected() throws Exception {
        GenericRecord record = TestEvents.avroRecord(EventTopics.YARN_CONTAINERS, yarnJson(""));
        record.put("state", new GenericData.EnumSymbol(record.getSchema().getField("state").schema(), "UNKNOWN"));
        assertRejected(avro(EventTopics.YARN_CONTAINERS, TestEvents.singleObject(record)), Reason.INVALID_FIELD,
                "state", "a state from a newer schema version");
    }

    @Test
    void workflowThatIsNotADag() {
        assertRejected(workflow("[]"), Reason.INVALID_FIELD, "jobs", "at least one job");
        assertRejected(workflow("[" + job("a", "") + "," + job("a", "") + "]"), Reason.INVALID_FIELD, "jobs[1].jobId",
                "duplicate job id \"a\"");
        assertRejected(workflow("[" + job("a", "\"b\"") + "]"), Reason.INVALID_FIELD, "jobs[0].dependsOn[0]",
                "\"b\" is not a job of this workflow");
        assertRejected(workflow("[" + job("a", "") + "," + job("b", "\"c\"") + "," + job("c", "\"b\"") + ","
                + job("d", "\"c\"") + "]"), Reason.INVALID_FIELD, "jobs",
                "dependencies form a cycle; jobs on or behind it: [b, c, d]");
        assertRejected(workflow("[" + job("a", "\"a\"") + "]"), Reason.INVALID_FIELD, "jobs",
                "dependencies form a cycle; jobs on or behind it: [a]");
        assertRejected(workflow("[{\"jobId\":\"a\"}]"), Reason.MISSING_FIELD, "jobs[0].requestedTasks",
                "required field is absent");
        assertThat(decoder.decode(EventTopics.WORKFLOWS, EventDecoder.JSON,
                TestEvents.utf8(workflowJson("[" + job("a", "") + "," + job("b", "\"a\",\"a\"") + "]"))).isOk())
                .as("a repeated dependency is still a DAG").isTrue();
    }

    @Test
    void negativeResources() {
        assertRejected(demandJson(demand("").replace("4096", "-1")), Reason.INVALID_RESOURCES, "pendingMemoryMb",
                "-1 is negative");
        assertRejected(demandJson(demand(",\"pendingGpus\":-0.5")), Reason.INVALID_RESOURCES, "pendingGpus",
                "-0.5 is negative");
        assertRejected(yarnRaw(yarnJson("").replace("\"allocatedVcores\":1", "\"allocatedVcores\":-2")),
                Reason.INVALID_RESOURCES, "allocatedVcores", "-2 is negative");
        assertRejected(jobsRaw(jobSubmittedJson("").replace("\"requestedTasks\":3", "\"requestedTasks\":0")),
                Reason.INVALID_RESOURCES, "requestedTasks", "at least 1 task");
        assertRejected(jobFinished("-5", "4"), Reason.INVALID_RESOURCES, "compTimeCpuSeconds", "-5 is negative");
    }

    @Test
    void absurdResources() {
        long tooMuchMemory = ResourceLimits.MAX_MEMORY_MB + 1;
        assertRejected(demandJson(demand("").replace("4096", Long.toString(tooMuchMemory))),
                Reason.INVALID_RESOURCES, "pendingMemoryMb", tooMuchMemory + " is beyond the limit of 1099511627776");
        assertThat(demandJson(demand("").replace("4096", Long.toString(ResourceLimits.MAX_MEMORY_MB))).isOk())
                .as("the limit itself is allowed").isTrue();
        assertRejected(jobFinished("1", "1e9"), Reason.INVALID_RESOURCES, "allocatedCpus",
                "1000000000 is beyond the limit of 16777216");
        assertRejected(capacity("\"TOTALS\"", ",\"gpus\":1e7"), Reason.INVALID_RESOURCES, "gpus",
                "10000000 is beyond the limit of 1048576");
    }

    @Test
    void notFiniteResourcesInAvro() throws Exception {
        GenericRecord record = TestEvents.avroRecord(EventTopics.DEMAND, demand(""));
        record.put("pendingCpus", Double.NaN);
        assertRejected(avro(EventTopics.DEMAND, TestEvents.singleObject(record)), Reason.INVALID_RESOURCES,
                "pendingCpus", "NaN is not a finite number");
        record.put("pendingCpus", Double.POSITIVE_INFINITY);
        assertRejected(avro(EventTopics.DEMAND, TestEvents.singleObject(record)), Reason.INVALID_RESOURCES,
                "pendingCpus", "Infinity is not a finite number");
    }

    @Test
    void eventTimeBeyondTheAllowedSkew() {
        String fiveMinutesAhead = demand("").replace("2026-11-22T09:00:00Z", "2026-11-22T10:05:00Z");
        String justBeyond = demand("").replace("2026-11-22T09:00:00Z", "2026-11-22T10:05:00.001Z");
        assertThat(demandJson(fiveMinutesAhead).isOk()).as("exactly the allowed skew").isTrue();
        assertRejected(demandJson(justBeyond), Reason.FUTURE_EVENT_TIME, "eventTime",
                "2026-11-22T10:05:00.001Z is PT5M0.001S ahead of the server clock (2026-11-22T10:00:00Z); at most"
                        + " PT5M of skew is allowed");
        EventDecoder strict = new EventDecoder(TestEvents.CLOCK, Duration.ofSeconds(10));
        assertRejected(strict.decode(EventTopics.DEMAND, EventDecoder.JSON, TestEvents.utf8(fiveMinutesAhead)),
                Reason.FUTURE_EVENT_TIME, "eventTime", "at most PT10S of skew is allowed");
    }

    @Test
    void describeIsTheDeadLetterReasonLine() {
        Decoded decoded = demandJson(demand("").replace("\"eventId\":\"d1\",", ""));
        assertThat(((Decoded.Rejected) decoded).rejection().describe())
                .isEqualTo("missing-field: eventId: required field is absent");
    }

    private Decoded demandJson(String json) {
        return decoder.decode(EventTopics.DEMAND, EventDecoder.JSON, TestEvents.utf8(json));
    }

    private Decoded avro(String topic, byte[] bytes) {
        return decoder.decode(topic, EventDecoder.AVRO, bytes);
    }

    private Decoded yarn(String extra) {
        return yarnRaw(yarnJson(extra));
    }

    private Decoded yarnRaw(String json) {
        return decoder.decode(EventTopics.YARN_CONTAINERS, EventDecoder.JSON, TestEvents.utf8(json));
    }

    private Decoded capacity(String change, String extra) {
        return decoder.decode(EventTopics.CAPACITY, EventDecoder.JSON,
                TestEvents
                        .utf8("{\"eventId\":\"k1\",\"cluster\":\"c1\",\"eventTime\":1795251600000,\"change\":" + change
                                + ",\"cpus\":8,\"memoryMb\":1024" + extra + "}"));
    }

    private Decoded jobSubmitted(String extra) {
        return jobsRaw(jobSubmittedJson(extra));
    }

    private Decoded jobsRaw(String json) {
        return decoder.decode(EventTopics.JOBS, EventDecoder.JSON, TestEvents.utf8(json));
    }

    private static String jobSubmittedJson(String extra) {
        return ("{\"type\":\"JobSubmitted\",\"eventId\":\"j1\",\"cluster\":\"c1\","
                + "\"eventTime\":1795251600000,\"jobId\":\"job-1\",\"tenant\":\"t\",\"requestedTasks\":3" + extra
                + "}");
    }

    private Decoded jobFinished(String compTime, String cpus) {
        return decoder.decode(EventTopics.JOBS, EventDecoder.JSON,
                TestEvents.utf8("{\"type\":\"JobFinished\",\"eventId\":\"j2\",\"cluster\":\"c1\","
                        + "\"eventTime\":1795251600000,\"jobId\":\"job-1\",\"tenant\":\"t\",\"compTimeCpuSeconds\":"
                        + compTime + ",\"allocatedCpus\":" + cpus + ",\"outcome\":\"SUCCEEDED\"}"));
    }

    private Decoded workflow(String jobs) {
        return decoder.decode(EventTopics.WORKFLOWS, EventDecoder.JSON, TestEvents.utf8(workflowJson(jobs)));
    }

    private static String workflowJson(String jobs) {
        return "{\"eventId\":\"w1\",\"cluster\":\"c1\",\"eventTime\":1795251600000,\"workflowId\":\"wf\","
                + "\"tenant\":\"t\",\"relativeDeadlineSeconds\":600,\"jobs\":" + jobs + "}";
    }

    private static String job(String id, String dependsOn) {
        return "{\"jobId\":\"" + id + "\",\"requestedTasks\":1,\"dependsOn\":[" + dependsOn + "]}";
    }

    private static String demand(String extra) {
        return String.format(DEMAND, extra);
    }

    private static String yarnJson(String extra) {
        return String.format(YARN, extra);
    }

    private static void assertRejected(Decoded decoded, Reason reason, String field, String detailContains) {
        assertThat(decoded).isInstanceOf(Decoded.Rejected.class);
        Rejection rejection = ((Decoded.Rejected) decoded).rejection();
        assertThat(rejection.reason()).as(rejection.describe()).isEqualTo(reason);
        assertThat(rejection.field()).as(rejection.describe()).isEqualTo(field);
        assertThat(rejection.detail()).contains(detailContains);
    }
}
