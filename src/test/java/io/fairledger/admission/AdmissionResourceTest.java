package io.fairledger.admission;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/** The admission API against a real PostgreSQL and Kafka (the test profile trusts loopback callers as admin). */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class AdmissionResourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @ConfigProperty(name = "quarkus.application.version")
    String version;

    /** /q/metrics of the management interface (its own port; the path is relative to its root, /q). */
    @TestHTTPResource(value = "/metrics", management = true)
    java.net.URL metricsUrl;

    @Inject
    AdmissionLog log;

    @Inject
    AdmissionService service;

    private static void cluster(String id, int vcores) {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + id + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":%d,"memoryMb":10240,"gpus":0},
                 "tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":1}]}""".formatted(vcores))
                .put("/api/v1/admin/clusters/" + id + "/ledger-settings").then().statusCode(200);
    }

    private static String job(String id, int tasks, double deadlineSeconds) {
        return "{\"id\":\"" + id + "\",\"tenant\":\"root.a\",\"tasks\":" + tasks + ",\"deadlineSeconds\":"
                + deadlineSeconds + ",\"estimatedCpuSeconds\":50}";
    }

    @Test
    void submitAdmitQueueDropCompleteAndHistoryAndKafka() throws Exception {
        String c = "adm-yarn";
        cluster(c, 10);
        String jobs = "/api/v1/clusters/" + c + "/jobs";
        given().contentType(ContentType.JSON).body(job("j1", 4, 100)).post(jobs).then().statusCode(201)
                .header("Location", containsString(jobs + "/j1"))
                .body("job.status", equalTo("RUNNING")).body("job.cpus", equalTo(4))
                .body("decisions.outcome", contains("ADMITTED")).body("decisions.cpus", contains(4));
        given().contentType(ContentType.JSON).body(job("j2", 8, 100)).post(jobs).then().statusCode(201)
                .body("decisions.cpus", contains(6));
        given().contentType(ContentType.JSON).body(job("late", 2, 0.001)).post(jobs).then().statusCode(201)
                .body("decisions.outcome", contains("QUEUED"));
        Thread.sleep(10); // let the 1 ms deadline of "late" pass before j4's pass (not a timing assertion)
        given().contentType(ContentType.JSON).body(job("j4", 2, 100)).post(jobs).then().statusCode(201)
                .body("job.status", equalTo("QUEUED"));
        // the same id again
        given().contentType(ContentType.JSON).body(job("j4", 2, 100)).post(jobs).then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("j4"));

        given().contentType(ContentType.JSON).body("{\"compTimeCpuSeconds\":40}").post(jobs + "/j1/completion")
                .then().statusCode(200).body("job.status", equalTo("COMPLETED"))
                .body("decisions.jobId", hasItem("j4"));
        given().contentType(ContentType.JSON).body("{\"compTimeCpuSeconds\":40}").post(jobs + "/j1/completion")
                .then().statusCode(409).body("detail", containsString("completed, not running"));
        given().get(jobs + "/late").then().statusCode(200).body("status", equalTo("DROPPED"))
                .body("history.outcome", contains("QUEUED", "DROPPED"));
        given().get(jobs + "/j4").then().statusCode(200)
                .body("history.outcome", contains("QUEUED", "ADMITTED"))
                .body("history[1].explanation.policy", equalTo("justice"))
                .body("history[1].explanation.fraction", equalTo(1.0f));
        given().get(jobs + "/nope").then().statusCode(404).contentType("application/problem+json");
        given().get(jobs + "/j4/explanation").then().statusCode(200).body("tenant", equalTo("root.a"))
                .body("decisions.explanation.ttdMillis", hasSize(2));

        List<JsonNode> published = readDecisions(c, 6);
        assertThat(published).extracting(n -> n.get("jobId").asText() + ":" + n.get("outcome").asText())
                .containsExactly("j1:ADMITTED", "j2:ADMITTED", "late:QUEUED", "late:DROPPED", "j4:QUEUED",
                        "j4:ADMITTED");
        assertThat(published.get(0).get("cpus").asInt()).isEqualTo(4);
        assertThat(published.get(0).get("cluster").asText()).isEqualTo(c);
        assertThat(published.get(3).get("reason").asText()).isNotBlank();

        given().get("/q/metrics").then().statusCode(404);
        String metrics = given().get(metricsUrl.toString()).then().statusCode(200).extract().asString();
        assertThat(metrics)
                .contains("fairledger_admission_decisions_total{cluster=\"adm-yarn\",outcome=\"admitted\"} 3.0")
                .contains("fairledger_admission_decisions_total{cluster=\"adm-yarn\",outcome=\"dropped\"} 1.0")
                .contains("fairledger_admission_queue_jobs{cluster=\"adm-yarn\"} 0.0")
                .contains("fairledger_admission_cpu_ratio{cluster=\"adm-yarn\",kind=\"corrected\"} 1.0")
                .contains("fairledger_admission_satisfied_deadline_ratio{cluster=\"adm-yarn\"} 0.5")
                // the build: this artifact's version and the commit it was built from
                .containsPattern("fairledger_build_info\\{commit=\"[0-9a-f]{7,}\",version=\""
                        + java.util.regex.Pattern.quote(version) + "\"} 1.0");

        // replay of the stored log from scratch (what a restart or another replica does) gives the same jobs
        ClusterAdmission replayed = new ClusterAdmission(c);
        log.after(c, 0, 10_000).forEach(replayed::apply);
        for (String id : List.of("j1", "j2", "late", "j4")) {
            assertThat(replayed.job(id)).isEqualTo(service.read(c, s -> s.job(id)));
        }
    }

    @Test
    void invalidSubmissionsAreProblemsThatSayWhatIsWrong() {
        String c = "adm-bad";
        cluster(c, 4);
        String jobs = "/api/v1/clusters/" + c + "/jobs";
        given().contentType(ContentType.JSON).body("{\"id\":\"x\",\"tasks\":0,\"deadlineSeconds\":-1}").post(jobs)
                .then().statusCode(422).contentType("application/problem+json")
                .body("errors.message", hasItem("tasks must be >= 1"))
                .body("errors.message", hasItem("deadlineSeconds must be at least 0.001 (1 ms)"));
        given().contentType(ContentType.JSON).body("{\"id\":\"x\",\"tasks\":1}").post(jobs).then().statusCode(422)
                .body("detail", containsString("exactly one of deadlineSeconds"));
        given().contentType(ContentType.JSON).body("{\"id\":\"x\",\"tasks\":1,\"deadlineSeconds\":1,"
                + "\"tenant\":\"nope\"}").post(jobs).then().statusCode(422).body("detail", containsString("root"));
        given().contentType(ContentType.JSON).body(job("x", 1, 1)).post("/api/v1/clusters/unknown-c/jobs").then()
                .statusCode(404);
        given().contentType(ContentType.JSON).body("{\"id\":\"unsettled\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(job("x", 1, 1)).post("/api/v1/clusters/unsettled/jobs").then()
                .statusCode(409).body("detail", containsString("ledger settings"));
    }

    @Test
    void workflowsGetDeadlinesAndAPlanAndACycleIsNamed() {
        String c = "adm-flow";
        cluster(c, 8);
        String flows = "/api/v1/clusters/" + c + "/workflows";
        given().contentType(ContentType.JSON).body("""
                {"id":"wf1","tenant":"root.b","deadlineSeconds":3600,"slotSeconds":60,"jobs":[
                 {"id":"a","tasks":4,"taskRuntimeSeconds":120},
                 {"id":"b","tasks":2,"taskRuntimeSeconds":300,"dependsOn":["a"]},
                 {"id":"c","tasks":4,"taskRuntimeSeconds":120,"dependsOn":["b"]}]}""").post(flows).then()
                .statusCode(201).body("status", equalTo("PLANNED"))
                .body("jobs.jobId", contains("a", "b", "c"))
                .body("plan.method", equalTo("lex-min-max"))
                .body("plan.leftover", hasSize(60))
                .body("plan.lateJobs", hasSize(0));
        String body = given().get(flows + "/wf1").then().statusCode(200).extract().asString();
        assertThat(body).contains("\"releaseAt\"").contains("\"cpusPerSlot\"");
        // the same id again: a typed duplicate refusal, answered as a conflict
        given().contentType(ContentType.JSON).body("""
                {"id":"wf1","deadlineSeconds":600,"jobs":[{"id":"a","tasks":1,"taskRuntimeSeconds":10}]}""")
                .post(flows).then().statusCode(409).contentType("application/problem+json")
                .body("detail", containsString("wf1 was already submitted"));
        given().contentType(ContentType.JSON).body("""
                {"id":"loop","deadlineSeconds":600,"jobs":[
                 {"id":"a","tasks":1,"taskRuntimeSeconds":10,"dependsOn":["c"]},
                 {"id":"b","tasks":1,"taskRuntimeSeconds":10,"dependsOn":["a"]},
                 {"id":"c","tasks":1,"taskRuntimeSeconds":10,"dependsOn":["b"]}]}""").post(flows).then()
                .statusCode(422).contentType("application/problem+json")
                .body("detail", containsString("dependency cycle")).body("detail", containsString(" -> "));
        given().get(flows + "/loop").then().statusCode(404);
    }

    @Test
    void anAdminPolicyChangeIsValidatedAuditedAndDecidesQueuedJobsAgain() {
        String c = "adm-policy";
        cluster(c, 4);
        String policy = "/api/v1/admin/clusters/" + c + "/admission-policy";
        given().get(policy).then().statusCode(200).body("settings.policy", equalTo("justice"))
                .body("capacityCpus", equalTo(4));
        String jobs = "/api/v1/clusters/" + c + "/jobs";
        given().contentType(ContentType.JSON).body(job("big", 4, 3600)).post(jobs).then().statusCode(201);
        given().contentType(ContentType.JSON).body(job("small", 2, 3600)).post(jobs).then().statusCode(201)
                .body("job.status", equalTo("QUEUED"));

        given().contentType(ContentType.JSON).body("{\"policy\":\"nope\",\"alpha\":3,\"bootstrapJobs\":0}").put(policy)
                .then().statusCode(422)
                .body("errors.message", hasItem("policy must be one of justice, pythia, oracle, baseline-fs, "
                        + "reactive-fs"))
                .body("errors.message", hasItem("alpha must be in (0, 1]"))
                .body("errors.message", hasItem("bootstrapJobs must be >= 1"));
        given().contentType(ContentType.JSON).body("{\"policy\":\"justice\",\"alpha\":0.3}").put(policy).then()
                .statusCode(422).body("detail", containsString("exponential"));
        given().contentType(ContentType.JSON)
                .body("{\"policy\":\"pythia\",\"smoothing\":\"exponential\",\"alpha\":0.3,\"killAboveTasks\":10}")
                .put(policy).then().statusCode(200).body("settings.policy", equalTo("pythia"))
                .body("settings.alpha", equalTo(0.3f)).body("settings.killAboveTasks", equalTo(10));
        given().get(policy).then().statusCode(200).body("settings.policy", equalTo("pythia"));

        given().queryParam("cluster", c).get("/api/v1/admin/audit").then().statusCode(200)
                .body("subject", hasItem("admission-policy"));
        given().get(jobs + "/small").then().statusCode(200)
                .body("history.outcome", contains("QUEUED", "QUEUED"))
                .body("history[1].reason", containsString("policy changed to pythia"));
        given().get(jobs + "/big").then().statusCode(200).body("history.outcome", contains("ADMITTED", "CARRIED"));
        given().contentType(ContentType.JSON).body("{\"compTimeCpuSeconds\":10}").post(jobs + "/big/completion")
                .then().statusCode(200).body("decisions.jobId", contains("small"));
    }

    @Test
    void jobEventsFromKafkaAreAdmitted() throws Exception {
        String c = "adm-kafka";
        cluster(c, 6);
        Instant now = Instant.now().minusSeconds(1);
        String submitted = "{\"type\":\"JobSubmitted\",\"eventId\":\"k-" + UUID.randomUUID() + "\",\"cluster\":\""
                + c + "\",\"eventTime\":\"" + now + "\",\"jobId\":\"kjob\",\"tenant\":\"root.b\","
                + "\"requestedTasks\":3,\"relativeDeadlineSeconds\":600}";
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(EventTopics.JOBS, c, submitted)).get();
        }
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(500))
                .untilAsserted(() -> given().get("/api/v1/clusters/" + c + "/jobs/kjob").then().statusCode(200)
                        .body("status", equalTo("RUNNING")).body("cpus", equalTo(3)));
        List<JsonNode> published = readDecisions(c, 1);
        assertThat(published.get(0).get("jobId").asText()).isEqualTo("kjob");
    }

    /** The decisions of {@code cluster} on the decisions topic, waiting until at least {@code atLeast} arrived. */
    private List<JsonNode> readDecisions(String cluster, int atLeast) throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<JsonNode> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(DecisionPublisher.TOPIC));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (out.size() < atLeast && System.nanoTime() < until) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (cluster.equals(r.key())) {
                        out.add(JSON.readTree(r.value()));
                    }
                }
            }
            // whatever else is already there
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofSeconds(1))) {
                if (cluster.equals(r.key())) {
                    out.add(JSON.readTree(r.value()));
                }
            }
        }
        assertThat(out).as("decisions of " + cluster + " on " + DecisionPublisher.TOPIC).hasSizeGreaterThanOrEqualTo(
                atLeast);
        return out;
    }
}
