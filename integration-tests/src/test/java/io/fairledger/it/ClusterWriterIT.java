package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * One writer per cluster (docs/operations.md, "Replicas: who writes"): two replicas of the packaged server on one
 * PostgreSQL and one Kafka. Exactly one is the cluster's writer ({@code fairledger_cluster_writer} 1): it closes every
 * period and stores every checkpoint, the other none (their counters: so each checkpoint is stored by one replica, once);
 * after a SIGKILL of the writer the survivor
 * becomes the writer and goes on closing, each period still closed once; the statements equal {@code fairledger
 * account} on the same events.
 */
class ClusterWriterIT {

    private static final String CLUSTER = "it-writer";

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static LedgerScenario scenario;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        String bootstrap = kafka.config().get("kafka.bootstrap.servers");
        scenario = new LedgerScenario(CLUSTER, postgres.config(), bootstrap);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(LedgerScenario.TOPIC, 2, (short) 1))).all().get(30,
                    TimeUnit.SECONDS);
        }
    }

    @AfterAll
    static void stop() {
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void oneReplicaClosesEachPeriodOnceAndTheOtherTakesOverWhenItDies() throws Exception {
        // containers of root.a and root.b every 20 minutes for 8 hours; the first half published before the kill
        List<String> events = scenario.events(8);
        // the first half: up to a220 and b220; a240 is at 24
        int half = 24;
        String until = "2026-11-20T08:00:00Z";
        JsonNode offline = LedgerScenario.account(events, until);
        assertThat(offline.size()).as("periods 0 to 7").isEqualTo(8);

        List<ServerProcess> replicas = new ArrayList<>();
        try {
            replicas.add(ServerProcess.start(scenario.serverEnv(), "serve"));
            scenario.register(replicas.get(0));
            replicas.add(ServerProcess.start(scenario.serverEnv(), "serve"));
            scenario.publish(events.subList(0, half));
            // periods 0 to 3 close: the latest event time, 04:30 (a220's finish), reaches period 3's end plus
            // the lateness
            Awaitility.await("periods 0 to 3 closed").atMost(120, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> scenario.closedPeriods() == 4);
            ServerProcess writer = awaitOneWriter(replicas);
            ServerProcess other = replicas.get(0) == writer ? replicas.get(1) : replicas.get(0);
            double closedByWriter = metric(writer, "fairledger_closing_periods_total");
            assertThat(closedByWriter).as("periods the writer closed").isEqualTo(4);
            assertThat(metric(other, "fairledger_closing_periods_total")).as("periods the other closed").isZero();
            assertThat(metric(writer, "fairledger_live_checkpoints_stored_total")).as("the writer's checkpoints")
                    .isPositive();
            assertThat(metric(other, "fairledger_live_checkpoints_stored_total")).as("the other's checkpoints")
                    .isZero();
            // the other still serves reads from its own live ledger
            given().baseUri(other.baseUrl()).get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then()
                    .statusCode(200);

            assertThat(writer.kill()).as("exit status of the killed writer: SIGKILL").isEqualTo(128 + 9);
            replicas.remove(writer);
            System.out.println("[fairledger-it] writer with pid " + writer.pid() + " killed; its log " + writer.log);
            scenario.publish(events.subList(half, events.size()));

            Awaitility.await("the survivor writes").atMost(60, TimeUnit.SECONDS).pollInterval(500,
                    TimeUnit.MILLISECONDS).until(() -> metric(other, "fairledger_cluster_writer") == 1);
            // the latest event, 08:50, passed 08:30: periods 0 to 7 close
            Awaitility.await("periods 0 to 7 closed").atMost(120, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> scenario.closedPeriods() == 8);
            assertThat(closedByWriter + metric(other, "fairledger_closing_periods_total"))
                    .as("each period closed once, by one replica").isEqualTo(scenario.closedPeriods());
            JsonNode served = LedgerScenario.JSON.readTree(scenario.statements(other, until));
            assertThat(ServerProcess.withoutChain(served)).isEqualTo(offline);
        } finally {
            replicas.forEach(ServerProcess::close);
        }
    }

    /** The one replica whose writer gauge is 1, once the other's is 0. */
    private static ServerProcess awaitOneWriter(List<ServerProcess> replicas) {
        List<ServerProcess> writers = new ArrayList<>();
        Awaitility.await("one writer").atMost(60, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> {
                    writers.clear();
                    for (ServerProcess r : replicas) {
                        double gauge = metric(r, "fairledger_cluster_writer");
                        assertThat(gauge).as("writer gauge of pid " + r.pid()).isIn(0.0, 1.0);
                        if (gauge == 1) {
                            writers.add(r);
                        }
                    }
                    assertThat(writers).hasSize(1);
                });
        System.out.println("[fairledger-it] the writer of " + CLUSTER + " is pid " + writers.get(0).pid());
        return writers.get(0);
    }

    /** The value of {@code name} for the cluster on {@code replica}'s metrics; 0 when it has none. */
    private static double metric(ServerProcess replica, String name) {
        String text = given().baseUri(replica.managementUrl()).get("/q/metrics").then().statusCode(200).extract()
                .asString();
        Matcher m = Pattern.compile("(?m)^" + name + "\\{cluster=\"" + CLUSTER + "\"[^}]*} (\\S+)$").matcher(text);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
