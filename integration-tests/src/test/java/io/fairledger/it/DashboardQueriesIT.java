package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.it.DashboardPanels.Query;
import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.PrometheusDependency;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Every panel of every Grafana dashboard shows data, and counts each replica's numbers once: a real Prometheus scrapes
 * two replicas of the packaged server (one consumer group, one PostgreSQL) while a workload
 * reaches it through Kafka (YARN containers of eight queues, some still running, demand reports, deadline jobs, a
 * few undecodable records) and HTTP calls reach its API; then each dashboard variable's {@code label_values} query
 * and each panel's PromQL, with the variables substituted, run through Prometheus's HTTP API, and the test lists
 * every query that returned nothing. Every replica publishes the same per-tenant, per-cluster and admission series
 * (each computes every cluster's ledger from PostgreSQL), so the dashboards aggregate them with {@code max by}: each
 * panel query over those series, at one instant, must give what it gives over one replica alone (between the two
 * replicas' values, which differ only by when each last applied the facts), never their sum or one series per
 * replica. {@code -Dfairledger.dashboards=operations.json,...} limits it to some dashboards.
 */
class DashboardQueriesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLUSTER = "it-dash";
    private static final int QUEUES = 8;
    /** The values the workload gives the dashboard variables, used when a variable's own query finds none. */
    private static final Map<String, String> WORKLOAD_VALUES = Map.of("cluster", CLUSTER, "tenant", "root.q0");

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static RealDependency.Running prometheus;
    private static ServerProcess server;
    /** The second replica: same PostgreSQL, same consumer group. */
    private static ServerProcess second;
    /** Series every replica publishes alike (docs/metrics.md, "Replicas"). */
    private static final Pattern REPLICATED = Pattern.compile("\\bfairledger_(tenant|cluster|admission)_[a-z_]+");
    private static int ledgerEvents;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        Map<String, String> env = ServerProcess.environment(postgres, kafka);
        server = ServerProcess.start(env, "serve");
        second = ServerProcess.start(env, "serve");
        prometheus = PrometheusDependency.start(instance(server), instance(second));
        feedWorkload();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        try {
            if (prometheus != null) {
                prometheus.close();
            }
            if (server != null) {
                server.terminate();
            }
            if (second != null) {
                second.terminate();
            }
        } finally {
            if (kafka != null) {
                kafka.close();
            }
            if (postgres != null) {
                postgres.close();
            }
        }
    }

    /**
     * Registers the cluster over HTTP and publishes, keyed by cluster: 1,500 YARN containers that started over the
     * last 30 minutes (the completion of those finishing in the future is withheld, so they are still running),
     * demand of four queues now, four deadline jobs of which two finished, and five records that cannot be decoded.
     */
    private static void feedWorkload() throws Exception {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Instant registered = now.minus(Duration.ofMinutes(40));
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body(YarnWorkload.settings(registered, QUEUES))
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);

        List<String> containers = new ArrayList<>();
        for (String line : YarnWorkload.lines(CLUSTER, now.minus(Duration.ofMinutes(30)), 1_500, QUEUES, 8)) {
            long eventTime = JSON.readTree(line).get("eventTime").asLong();
            if (eventTime < now.toEpochMilli()) {
                containers.add(line);
            }
        }
        ledgerEvents = containers.size();
        List<String> demand = new ArrayList<>();
        for (int q = 0; q < 4; q++) {
            demand.add("""
                    {"type":"DemandReported","eventId":"it-demand-%d","cluster":"%s","eventTime":"%s",\
                    "tenant":"root.q%d","pendingCpus":%d,"pendingMemoryMb":%d,"pendingTasks":%d}"""
                    .formatted(q, CLUSTER, now, q, 10 + 10 * q, 40_960 * (q + 1), 10 + 10 * q));
        }
        List<String> jobs = new ArrayList<>();
        for (int j = 0; j < 4; j++) {
            Instant submitted = now.minus(Duration.ofMinutes(20 - j));
            jobs.add("""
                    {"type":"JobSubmitted","eventId":"it-job-%d-submitted","cluster":"%s","eventTime":"%s",\
                    "jobId":"it-job-%d","tenant":"root.q%d","requestedTasks":%d,"relativeDeadlineSeconds":%d}"""
                    .formatted(j, CLUSTER, submitted, j, j % QUEUES, 4 + 4 * j, 600 + 300 * j));
            if (j < 2) {
                jobs.add("""
                        {"type":"JobFinished","eventId":"it-job-%d-finished","cluster":"%s","eventTime":"%s",\
                        "jobId":"it-job-%d","tenant":"root.q%d","compTimeCpuSeconds":%d,"allocatedCpus":%d,\
                        "outcome":"SUCCEEDED"}"""
                        .formatted(j, CLUSTER, submitted.plus(Duration.ofMinutes(8)), j, j % QUEUES, 1_200 * (j + 1),
                                4 + 4 * j));
            }
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.config().get("kafka.bootstrap.servers")),
                new StringSerializer(), new StringSerializer())) {
            containers
                    .forEach(line -> producer.send(new ProducerRecord<>("fairledger.yarn.containers", CLUSTER, line)));
            demand.forEach(line -> producer.send(new ProducerRecord<>("fairledger.demand", CLUSTER, line)));
            jobs.forEach(line -> producer.send(new ProducerRecord<>("fairledger.jobs", CLUSTER, line)));
            for (int i = 0; i < 5; i++) {
                producer.send(new ProducerRecord<>("fairledger.yarn.containers", CLUSTER, "not an event " + i));
            }
            producer.flush();
        }
        // HTTP traffic for the HTTP panels: reads, and one request for a cluster that does not exist
        for (int i = 0; i < 5; i++) {
            given().baseUri(server.baseUrl()).get("/api/v1/admin/clusters").then().statusCode(200);
            given().baseUri(server.baseUrl()).get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.q0")
                    .then().statusCode(200);
        }
        given().baseUri(server.baseUrl()).get("/api/v1/admin/clusters/no-such-cluster/tenants/root.x")
                .then().statusCode(404);
        System.out.println(
                "[fairledger-it] " + "dashboard workload: " + containers.size() + " YARN events, " + demand.size()
                        + " demand reports, " + jobs.size() + " job events, 5 undecodable records");
    }

    @Test
    void everyPanelQueryReturnsData() throws Exception {
        String url = prometheus.config().get("prometheus.url");
        // the workload has been read: every YARN record is counted under some outcome, and Prometheus has it
        Awaitility.await("Prometheus sees the " + (ledgerEvents + 5) + " YARN records counted by the server")
                .atMost(180, TimeUnit.SECONDS).pollInterval(2, TimeUnit.SECONDS)
                .until(() -> PrometheusQueries.scalar(url,
                        "sum(fairledger_ingest_events_total{topic=\"fairledger.yarn.containers\"})") >= ledgerEvents
                                + 5);
        Thread.sleep(5_000); // a few more scrapes, so rates over the last minute have two samples after the burst

        Set<String> only = only();
        List<Query> queries = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Path file : DeploymentChecksIT.dashboardFiles()) {
            if (!only.isEmpty() && !only.contains(file.getFileName().toString())) {
                continue;
            }
            JsonNode dashboard = JSON.readTree(file.toFile());
            String title = dashboard.get("title").asText();
            Map<String, String> values = new HashMap<>(DashboardPanels.BUILT_INS);
            for (JsonNode variable : dashboard.at("/templating/list")) {
                if (!"query".equals(variable.path("type").asText())) {
                    continue;
                }
                String name = variable.get("name").asText();
                String query = DashboardPanels.substitute(
                        variable.at("/query/query").asText(variable.path("query").asText()),
                        values, failures, title);
                List<String> found = PrometheusQueries.labelValues(url, query);
                String expected = WORKLOAD_VALUES.get(name);
                if (found.isEmpty()) {
                    failures.add(title + " / variable $" + name + ": " + query + " -> no values");
                }
                values.put(name, found.contains(expected) || found.isEmpty() ? expected : found.get(0));
            }
            DashboardPanels.collect(dashboard.get("panels"), title, values, queries, failures);
        }
        assertThat(queries).as("panel queries found").isNotEmpty();

        // gauges appear at their first update: give queries that are still empty a minute more
        List<Query> empty = new ArrayList<>(queries);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        do {
            empty.removeIf(q -> !PrometheusQueries.query(url, q.promql()).isEmpty());
            if (!empty.isEmpty()) {
                Thread.sleep(2_000);
            }
        } while (!empty.isEmpty() && System.nanoTime() < deadline);
        for (Query q : empty) {
            failures.add(q.where() + ": " + q.promql() + " -> no data");
        }
        System.out.println(
                "[fairledger-it] " + "dashboard queries: " + (queries.size() - empty.size()) + " of " + queries.size()
                        + " panel queries returned data");
        assertThat(failures).as("dashboard variables and panel queries that returned nothing (%d of %d queries)",
                empty.size(), queries.size()).isEmpty();
    }

    @Test
    void replicatedSeriesAreCountedOnce() throws Exception {
        String url = prometheus.config().get("prometheus.url");
        Awaitility.await("both replicas publish the tenants' gauges").atMost(180, TimeUnit.SECONDS)
                .pollInterval(2, TimeUnit.SECONDS).until(() -> PrometheusQueries.query(url,
                        "count by (instance) (fairledger_tenant_share_ratio{cluster=\"" + CLUSTER + "\"})")
                        .size() == 2);
        Thread.sleep(3_000); // a few scrapes of both, so every gauge has a sample on each
        String time = Long.toString(Instant.now().getEpochSecond());
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (Query q : panelQueries()) {
            if (!REPLICATED.matcher(q.promql()).find()) {
                continue;
            }
            Map<String, Double> both = PrometheusQueries.vector(url, q.promql(), time);
            Map<String, Double> one = PrometheusQueries.vector(url,
                    PrometheusQueries.onlyFrom(q.promql(), instance(server)), time);
            Map<String, Double> other = PrometheusQueries.vector(url,
                    PrometheusQueries.onlyFrom(q.promql(), instance(second)), time);
            compared++;
            if (one.isEmpty() || other.isEmpty() || !both.keySet().equals(one.keySet())
                    || !both.keySet().equals(other.keySet())) {
                failures.add(q.where() + ": " + q.promql() + " -> series " + both.keySet() + ", one replica alone "
                        + one.keySet() + " and " + other.keySet());
                continue;
            }
            both.forEach((labels, value) -> {
                double low = Math.min(one.get(labels), other.get(labels));
                double high = Math.max(one.get(labels), other.get(labels));
                double slack = 1e-9 * Math.max(1, Math.abs(high));
                if (value < low - slack || value > high + slack) {
                    failures.add(q.where() + ": " + q.promql() + " " + labels + " = " + value
                            + " with two replicas, " + one.get(labels) + " and " + other.get(labels) + " alone");
                }
            });
        }
        System.out.println("[fairledger-it] dashboard queries over replicated series: " + compared
                + " compared with one replica alone, " + failures.size() + " differ");
        assertThat(compared).as("panel queries over per-tenant, per-cluster and admission series").isGreaterThan(20);
        assertThat(failures).as("queries that count a replica's numbers more than once").isEmpty();
    }

    /** Every panel query of the dashboards under test, with the workload's values for the variables. */
    private static List<Query> panelQueries() throws java.io.IOException {
        Set<String> only = only();
        List<Query> queries = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Path file : DeploymentChecksIT.dashboardFiles()) {
            if (only.isEmpty() || only.contains(file.getFileName().toString())) {
                JsonNode dashboard = JSON.readTree(file.toFile());
                Map<String, String> values = new HashMap<>(DashboardPanels.BUILT_INS);
                values.putAll(WORKLOAD_VALUES);
                DashboardPanels.collect(dashboard.get("panels"), dashboard.get("title").asText(), values, queries,
                        failures);
            }
        }
        assertThat(failures).isEmpty();
        return queries;
    }

    private static String instance(ServerProcess replica) {
        return "127.0.0.1:" + replica.managementPort;
    }

    private static Set<String> only() {
        String list = System.getProperty("fairledger.dashboards", "").strip();
        return list.isEmpty() ? Set.of() : Set.of(list.split("\\s*,\\s*"));
    }
}
