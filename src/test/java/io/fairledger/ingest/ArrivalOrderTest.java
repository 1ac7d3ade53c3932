package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.AccountCommand;

/**
 * The books depend on the events, not on the order they arrive in (docs/ingestion.md, "Duplicates, order and
 * lateness"), through {@code fairledger account}, the same intake as the server's consumer: a task starts at its
 * earliest reported start, simultaneous demand reports of several applications all count, a Mesos status update
 * without resources takes them from the task's earlier event, and Mesos memory is counted exactly.
 */
class ArrivalOrderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Hourly periods, 10 vcores, USAGE at 1 per vcore-hour, tenants a and b of equal weight (share 0.5 each). */
    static final String SETTINGS = """
            {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
             "memory":{"mode":"FULL"},"period":{"length":"PT1H"},
             "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"1","perGbHour":"0",
             "perGpuHour":"0"}]},
             "tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":1}]}""";

    @Test
    void aYarnContainerStartsAtItsAllocationWhicheverOfItsEventsArrivesFirst() throws IOException {
        String allocated = yarn("c1-allocated", "00:00:00", "ALLOCATED", "\"createdTime\":\"2026-11-20T00:00:00Z\"");
        String running = yarn("c1-running", "00:00:05", "RUNNING", null);
        String complete = yarn("c1-complete", "01:00:00", "COMPLETE", "\"finishedTime\":\"2026-11-20T01:00:00Z\"");

        JsonNode inOrder = account(List.of(allocated, running, complete), "2026-11-20T01:00:00Z").statements();
        JsonNode runningFirst = account(List.of(running, allocated, complete), "2026-11-20T01:00:00Z").statements();
        JsonNode finishFirst = account(List.of(complete, running, allocated), "2026-11-20T01:00:00Z").statements();

        assertThat(line(inOrder, 0, "a").get("vcoreSeconds").decimalValue()).isEqualByComparingTo("3600");
        assertThat(runningFirst).isEqualTo(inOrder);
        assertThat(finishFirst).isEqualTo(inOrder);
    }

    @Test
    void aMesosTaskStartsAtStagingWhicheverOfItsUpdatesArrivesFirst() throws IOException {
        String staging = mesos("t1-staging", "00:00:00", "TASK_STAGING", "\"cpus\":1.5,\"memMb\":1024.0");
        String running = mesos("t1-running", "00:00:05", "TASK_RUNNING", "\"cpus\":1.5,\"memMb\":1024.0");
        String finished = mesos("t1-finished", "01:00:00", "TASK_FINISHED", null);

        JsonNode inOrder = account(List.of(staging, running, finished), "2026-11-20T01:00:00Z").statements();
        JsonNode runningFirst = account(List.of(running, staging, finished), "2026-11-20T01:00:00Z").statements();

        assertThat(line(inOrder, 0, "a").get("vcoreSeconds").decimalValue()).isEqualByComparingTo("5400");
        assertThat(runningFirst).isEqualTo(inOrder);
    }

    @Test
    void simultaneousDemandReportsOfSeveralApplicationsAllCount() throws IOException {
        // tenant a holds 1 of 10 vcores throughout; its applications x1 and x2 report 2 and 3 pending at 00:30 and
        // both 0 at 01:30: from then on a's demand is what it holds, 0.1 of the cluster, so it is entitled 0.1 per hour
        String holds = yarn("c1-complete", "04:00:00", "COMPLETE",
                "\"createdTime\":\"2026-11-20T00:00:00Z\",\"finishedTime\":\"2026-11-20T04:00:00Z\"");
        List<String> reports = List.of(demand("x1-0030", "00:30:00", "x1", 2), demand("x2-0030", "00:30:00", "x2", 3),
                demand("x1-0130", "01:30:00", "x1", 0), demand("x2-0130", "01:30:00", "x2", 0));
        List<String> inOrder = new ArrayList<>(reports);
        inOrder.add(holds);
        List<String> reversed = new ArrayList<>(reports);
        Collections.reverse(reversed);
        reversed.add(0, holds);

        JsonNode forward = account(inOrder, "2026-11-20T04:00:00Z").statements();
        JsonNode backward = account(reversed, "2026-11-20T04:00:00Z").statements();

        assertThat(line(forward, 2, "a").get("entitled").decimalValue()).as("02:00-03:00")
                .isEqualByComparingTo(new BigDecimal("0.1"));
        assertThat(line(forward, 3, "a").get("entitled").decimalValue()).as("03:00-04:00")
                .isEqualByComparingTo(new BigDecimal("0.1"));
        assertThat(backward).isEqualTo(forward);
    }

    @Test
    void theMesosExamplesAreAcceptedAndARunningUpdateTakesItsResourcesFromTheTasksEarlierEvent() throws IOException {
        List<String> examples = Files.readAllLines(Path.of("kafka-schemas/examples/fairledger.mesos.tasks.jsonl"));
        String settings = SETTINGS.replace("2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z")
                .replace("root.a", "analytics");
        Result result = account(examples, "2026-11-21T10:00:00Z", settings, "prod-mesos");

        assertThat(result.deadLetters()).as("every example line is accepted").isEmpty();
        // etl-42 runs from 09:00 (2 cpus, never finished by 10:00), etl-43 from its staging at 09:00 to 09:10
        JsonNode analytics = line(result.statements(), 9, "analytics");
        assertThat(analytics.get("vcoreSeconds").decimalValue()).isEqualByComparingTo(
                BigDecimal.valueOf(2 * 3600 + 2 * 600));
    }

    @Test
    void aMesosRunningUpdateWithoutResourcesWhoseTaskNeverStatesThemIsADeadLetterWithItsReason() throws IOException {
        String running = mesos("t9-running", "00:00:05", "TASK_RUNNING", null);

        Result result = account(List.of(running), "2026-11-20T01:00:00Z");

        assertThat(result.deadLetters()).hasSize(1);
        assertThat(result.deadLetters().get(0).get("reason").asText()).isEqualTo("invalid: a Mesos task start "
                + "(TASK_RUNNING at 2026-11-20T00:00:05Z) of task 'f1/t1' carries no resources (cpus, mem, gpus), and "
                + "no event of the task that carries them, at most the allowed lateness (PT1H) after it, arrived among "
                + "the events");
    }

    @Test
    void aMesosRunningUpdateWithoutResourcesWaitsForItsTasksStagingThatArrivesLater() throws IOException {
        String running = mesos("t1-running", "00:00:05", "TASK_RUNNING", null);
        String staging = mesos("t1-staging", "00:00:00", "TASK_STAGING", "\"cpus\":1.5,\"memMb\":1024.0");
        String finished = mesos("t1-finished", "01:00:00", "TASK_FINISHED", null);

        Result inOrder = account(List.of(staging, running, finished), "2026-11-20T01:00:00Z");
        Result runningFirst = account(List.of(running, finished, staging), "2026-11-20T01:00:00Z");

        assertThat(runningFirst.deadLetters()).isEmpty();
        assertThat(line(runningFirst.statements(), 0, "a").get("vcoreSeconds").decimalValue())
                .isEqualByComparingTo("5400");
        assertThat(runningFirst.statements()).isEqualTo(inOrder.statements());
    }

    @Test
    void aMesosRunningUpdateWithoutResourcesExpiresOnceTheWatermarkPassesItByTwiceTheLateness() throws IOException {
        String running = mesos("t1-running", "00:00:05", "TASK_RUNNING", null);
        String later = mesos("t2-staging", "02:00:06", "TASK_STAGING", "\"cpus\":1,\"memMb\":1")
                .replace("\"taskId\":\"t1\"", "\"taskId\":\"t2\"");
        String staging = mesos("t1-staging", "00:00:00", "TASK_STAGING", "\"cpus\":1.5,\"memMb\":1024.0");

        // the staging comes two hours after the watermark passed its time: later than the lateness allows
        Result result = account(List.of(running, later, staging), "2026-11-20T03:00:00Z");

        assertThat(result.deadLetters()).hasSize(1);
        assertThat(result.deadLetters().get(0).get("line").asInt()).isEqualTo(1);
        assertThat(result.deadLetters().get(0).get("reason").asText()).endsWith("arrived before the watermark of "
                + "cluster 'c' passed 2026-11-20T02:00:05Z (its time plus twice the lateness)");
    }

    @Test
    void mesosMemoryIsCountedToTheThousandthOfAMegabyteAndAFourthDecimalIsRefusedNotRounded() throws IOException {
        String staging = mesos("t1-staging", "00:00:00", "TASK_STAGING", "\"cpus\":0.001,\"memMb\":1537.0");
        String finished = mesos("t1-finished", "00:00:10", "TASK_FINISHED", null);
        String fractional = task("t2", "00:00:00", "TASK_STAGING", "\"cpus\":1,\"memMb\":1536.4");
        String fractionalFinished = task("t2", "00:00:10", "TASK_FINISHED", null);
        String fourthDecimal = task("t3", "00:00:00", "TASK_STAGING", "\"cpus\":1,\"memMb\":600.0005");
        String tenThousandths = task("t4", "00:00:00", "TASK_STAGING", "\"cpus\":0.0005,\"memMb\":1");
        String huge = task("t5", "00:00:00", "TASK_STAGING", "\"cpus\":1,\"memMb\":9223372036854775.807");

        Result result = account(List.of(staging, finished, fractional, fractionalFinished, fourthDecimal,
                tenThousandths, huge), "2026-11-20T01:00:00Z");

        JsonNode a = line(result.statements(), 0, "a");
        // (1537 + 1536.4) MB for 10 s
        assertThat(a.get("memoryMbSeconds").decimalValue()).isEqualByComparingTo("30734");
        assertThat(a.get("vcoreSeconds").decimalValue()).isEqualByComparingTo("10.01");
        assertThat(result.deadLetters()).extracting(d -> d.get("reason").asText()).containsExactly(
                "invalid-resources: memMb: 600.0005 is not a whole number of thousandths of a MB: Mesos keeps "
                        + "scalars to three decimals",
                "invalid-resources: cpus: 5.0E-4 is not a whole number of thousandths of a CPU: Mesos keeps scalars "
                        + "to three decimals",
                "invalid-resources: memMb: 9223372036854776 is beyond the limit of 1099511627776");
    }

    /** A status of Mesos task {@code task} of framework f1, role a. */
    private static String task(String task, String time, String state, String resources) {
        return mesos(task + "-" + state, time, state, resources).replace("\"taskId\":\"t1\"",
                "\"taskId\":\"" + task + "\"");
    }

    @Test
    void anEventBeforeTheClustersRegistrationIsADeadLetterWithItsReason() throws IOException {
        String early = yarn("c0-allocated", "00:00:00", "ALLOCATED", "\"createdTime\":\"2026-11-19T23:00:00Z\"")
                .replace("2026-11-20T00:00:00Z", "2026-11-19T23:59:59Z");

        Result result = account(List.of(early), "2026-11-20T01:00:00Z");

        assertThat(result.deadLetters()).hasSize(1);
        assertThat(result.deadLetters().get(0).get("reason").asText()).isEqualTo("before-registration: eventTime "
                + "2026-11-19T23:59:59Z is before cluster 'c' was registered (2026-11-20T00:00:00Z); its books "
                + "start there");
    }

    record Result(JsonNode statements, List<JsonNode> deadLetters) {
    }

    static Result account(List<String> lines, String until) throws IOException {
        return account(lines, until, SETTINGS, "c");
    }

    static Result account(List<String> lines, String until, String settings, String cluster)
            throws IOException {
        Path dir = Files.createTempDirectory("fairledger-order");
        Files.write(dir.resolve("events.jsonl"), lines);
        Files.writeString(dir.resolve("settings.json"), settings);
        int exit = new CommandLine(new AccountCommand()).execute("--events", dir.resolve("events.jsonl").toString(),
                "--config", dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(),
                "--until", until, "--cluster", cluster);
        assertThat(exit).isZero();
        List<JsonNode> dead = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("out/dead-letters.jsonl"))) {
            dead.add(JSON.readTree(line));
        }
        return new Result(JSON.readTree(dir.resolve("out/statements.json").toFile()), dead);
    }

    static JsonNode line(JsonNode statements, int period, String tenant) {
        if (statements.size() <= period) {
            throw new AssertionError("no period " + period + " among the " + statements.size() + " statements");
        }
        for (JsonNode line : statements.get(period).get("lines")) {
            if (line.get("tenant").asText().equals(tenant) || line.get("tenant").asText().equals("root." + tenant)) {
                return line;
            }
        }
        throw new AssertionError("no line of " + tenant + " in period " + period + ": " + statements.get(period));
    }

    static String yarn(String eventId, String time, String state, String times) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"container_1\",\"queue\":\"root.a\",\"user\":\"u\",\"allocatedMemoryMb\":0,"
                + "\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"%s\"%s}")
                .formatted(eventId, time, state, times == null ? "" : "," + times);
    }

    static String mesos(String eventId, String time, String state, String resources) {
        return ("{\"type\":\"MesosTaskStatus\",\"eventId\":\"%s\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"frameworkId\":\"f1\",\"role\":\"a\",\"taskId\":\"t1\",\"state\":\"%s\"%s}")
                .formatted(eventId, time, state, resources == null ? "" : "," + resources);
    }

    static String demand(String eventId, String time, String application, int vcores) {
        return ("{\"type\":\"DemandReported\",\"eventId\":\"%s\",\"cluster\":\"c\",\"eventTime\":\"2026-11-20T%sZ\","
                + "\"tenant\":\"root.a\",\"applicationId\":\"%s\",\"pendingCpus\":%d,\"pendingMemoryMb\":0}")
                .formatted(eventId, time, application, vcores);
    }
}
