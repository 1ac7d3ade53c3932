package io.fairledger.ingest;

import static io.fairledger.ingest.ArrivalOrderTest.account;
import static io.fairledger.ingest.ArrivalOrderTest.line;
import static io.fairledger.ingest.ArrivalOrderTest.mesos;
import static io.fairledger.ingest.IntakeOverKafkaTest.MESOS_SETTINGS;
import static io.fairledger.ingest.IntakeOverKafkaTest.deadLetterReasons;
import static io.fairledger.ingest.IntakeOverKafkaTest.of;
import static io.fairledger.ingest.IntakeOverKafkaTest.register;
import static io.fairledger.ingest.IntakeOverKafkaTest.statements;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.ServedStatements;

/**
 * Mesos memory at the edges of what the server keeps (docs/domain.md, section 1: thousandths of a MB, at most 2^40
 * MB), through a real Kafka into PostgreSQL and the live ledger: the smallest and a fractional amount counted to the
 * thousandth, the largest counted whole, and one step past either edge a dead letter naming the field. The served
 * statements equal {@code fairledger account}'s on the same records.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class MesosMemoryOverKafkaTest {

    private static final String UNTIL = "2026-11-20T01:00:00Z";
    private static final ObjectMapper DECIMALS = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void fractionsToTheThousandthAndTheLargestAmountCountAndOneStepBeyondIsADeadLetter() throws Exception {
        String cluster = "memory-mesos";
        register(cluster, "MESOS", MESOS_SETTINGS);
        List<String> records = List.of(
                task(cluster, "half", "a", "600.5"), finished(cluster, "half", "a"),
                task(cluster, "thousandth", "b", "0.001"), finished(cluster, "thousandth", "b"),
                task(cluster, "largest", "b", "1099511627776"), finished(cluster, "largest", "b"),
                task(cluster, "ten-thousandth", "a", "600.0005"),
                task(cluster, "too-large", "a", "1099511627777"));

        EventPublisher.publish(bootstrap, EventTopics.MESOS_TASKS, cluster, records);

        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(deadLetterReasons(bootstrap, cluster)).hasSize(2));
        assertThat(deadLetterReasons(bootstrap, cluster)).allSatisfy(reason -> assertThat(reason)
                .startsWith("invalid-resources: memMb"));
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(line(statements(cluster, UNTIL), 0, "a").get("memoryMbSeconds")
                        .decimalValue()).isEqualByComparingTo("2161800"));
        // 600.5 MB for an hour on a; 0.001 MB and 2^40 MB for an hour on b, read as decimals (a double would read
        // 3958241859993603.6 as ...603.5)
        JsonNode exact = DECIMALS.readTree(given().accept(ContentType.JSON).queryParam("until", UNTIL)
                .get("/api/v1/admin/clusters/" + cluster + "/statements").then().statusCode(200).extract().asString());
        assertThat(line(exact, 0, "b").get("memoryMbSeconds").decimalValue())
                .isEqualByComparingTo("3958241859993603.6");
        assertThat(line(exact, 0, "a").get("memoryMbSeconds").decimalValue()).isEqualByComparingTo("2161800");
        var offline = account(records, UNTIL, MESOS_SETTINGS, cluster);
        assertThat(offline.deadLetters()).hasSize(2);
        // equal once the closer has closed the period, as account does
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(ServedStatements.withoutChain(statements(cluster, UNTIL)))
                        .isEqualTo(offline.statements()));
    }

    /** A task of {@code role} running from 00:00 with one CPU and {@code memMb} as written. */
    private static String task(String cluster, String task, String role, String memMb) {
        return of(cluster, mesos(task + "-running", "00:00:00", "TASK_RUNNING", "\"cpus\":1,\"memMb\":" + memMb))
                .replace("\"taskId\":\"t1\"", "\"taskId\":\"" + task + "\"")
                .replace("\"role\":\"a\"", "\"role\":\"" + role + "\"");
    }

    private static String finished(String cluster, String task, String role) {
        return of(cluster, mesos(task + "-finished", "01:00:00", "TASK_FINISHED", null))
                .replace("\"taskId\":\"t1\"", "\"taskId\":\"" + task + "\"")
                .replace("\"role\":\"a\"", "\"role\":\"" + role + "\"");
    }
}
