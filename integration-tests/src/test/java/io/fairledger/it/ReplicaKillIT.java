package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.utils.Utils;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Two replicas of the packaged server on one PostgreSQL and one Kafka, the YARN topic in six partitions with one
 * cluster's events in each, so that both replicas hold partitions; one replica is killed with SIGKILL and events are
 * then published to every partition. The survivor takes the dead replica's partitions once its session times out and
 * stores every event once (the facts of every cluster are exactly a start and a finish per container), and while the
 * dead member's partitions wait its health says so: readiness stays UP (it serves), and the ingestion check's
 * {@code lag} counts at least the records not yet stored and its {@code state} is not "caught up".
 * <p>
 * It prints the time from the kill to the first fact of the dead replica's partitions stored by the survivor, and
 * asserts no time. {@code -Dfairledger.it.takeover.rounds=N} repeats the round N times (a new replica joins the
 * survivor, the older of the two is killed): the benchmark of docs/benchmarks.md, "Replica takeover after a kill -9".
 */
class ReplicaKillIT {

    private static final String TOPIC = "fairledger.yarn.containers";
    private static final String GROUP = "fairledger";
    private static final int PARTITIONS = 6;
    private static final int CONTAINERS_PER_ROUND = 300;
    private static final int QUEUES = 4;
    private static final int SIGKILL_STATUS = 128 + 9;
    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static Admin admin;
    /** Made once, its metadata fetched, so that a round's events are out in well under the 6 s session timeout. */
    private static KafkaProducer<String, String> producer;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
        admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get(30, TimeUnit.SECONDS);
        producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(), ProducerConfig.LINGER_MS_CONFIG, 5),
                new StringSerializer(), new StringSerializer());
        producer.partitionsFor(TOPIC);
    }

    @AfterAll
    static void stop() {
        if (producer != null) {
            producer.close();
        }
        if (admin != null) {
            admin.close();
        }
        if (kafka != null) {
            kafka.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void theSurvivorStoresTheDeadReplicasPartitionsOnceAndItsHealthSaysWhatWaits() throws Exception {
        int rounds = Integer.getInteger("fairledger.it.takeover.rounds", 1);
        List<String> clusters = onePerPartition();
        // every round publishes its own containers, so a round's facts are new facts
        Map<String, List<String>> workload = new HashMap<>();
        for (int i = 0; i < clusters.size(); i++) {
            workload.put(clusters.get(i),
                    YarnWorkload.lines(clusters.get(i), START, CONTAINERS_PER_ROUND * (rounds + 1), QUEUES, 31 + i));
        }
        List<ServerProcess> replicas = new ArrayList<>();
        try {
            replicas.add(ServerProcess.start(serverEnv(), "serve"));
            // registered before the second replica starts, which then loads them at start
            clusters.forEach(cluster -> register(replicas.get(0), cluster));
            publish(workload, 0);
            for (int round = 1; round <= rounds; round++) {
                replicas.add(ServerProcess.start(serverEnv(), "serve"));
                Map<String, Set<Integer>> assignment = awaitTwoMembersHoldingPartitions();
                Map<Integer, Long> beforeKill = endOffsets();
                awaitStored(beforeKill);

                ServerProcess victim = replicas.remove(0);
                ServerProcess survivor = replicas.get(0);
                Instant killedAt = Instant.now();
                assertThat(victim.kill()).as("exit status of the killed replica: SIGKILL").isEqualTo(SIGKILL_STATUS);
                System.out.println("[fairledger-it] round " + round + ": replica with pid " + victim.pid()
                        + " killed (SIGKILL); its log " + victim.log);

                publish(workload, round);
                Map<Integer, Long> published = endOffsets();
                System.out.printf("[fairledger-it] round %d: events published to every partition %.2f s after the "
                        + "kill%n", round, seconds(killedAt, Instant.now()));
                int samples = sampleHealthUntilStored(survivor, published);
                assertThat(samples).as("health answers taken while records of the dead replica's partitions waited")
                        .isPositive();
                awaitCaughtUp(survivor);
                for (String cluster : clusters) {
                    assertThat(factCount(cluster)).as("facts of " + cluster + ": a start and a finish per container")
                            .isEqualTo(2L * CONTAINERS_PER_ROUND * (round + 1));
                }
                report(round, killedAt, deadPartitions(assignment), beforeKill);
            }
        } finally {
            replicas.forEach(ServerProcess::close);
        }
    }

    /**
     * Polls the survivor's health until every published record is stored, checking each answer against the stored
     * offsets read after it (offsets only grow, so what waits then waited at the answer); returns how many answers
     * were taken while records waited.
     */
    private static int sampleHealthUntilStored(ServerProcess survivor, Map<Integer, Long> published)
            throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(3));
        int samples = 0;
        Set<Object> lags = new TreeSet<>();
        Set<Object> states = new TreeSet<>();
        while (true) {
            given().baseUri(survivor.managementUrl()).get("/q/health/ready").then().statusCode(200);
            Response well = given().baseUri(survivor.managementUrl()).get("/q/health/well");
            long waiting = waiting(published);
            if (waiting == 0) {
                System.out.println("[fairledger-it] " + samples + " health answers while records waited: ready UP, "
                        + "ingestion lag " + lags + ", state " + states);
                return samples;
            }
            Object lag = ingestion(well, "lag");
            assertThat(lag).as("ingestion lag while %d records wait: %s", waiting, well.asString())
                    .isInstanceOf(Number.class);
            assertThat(((Number) lag).longValue()).as("ingestion lag while %d records wait", waiting)
                    .isGreaterThanOrEqualTo(waiting);
            assertThat(ingestion(well, "state")).as("ingestion state while records wait").isIn("storing", "stalled");
            samples++;
            lags.add(((Number) lag).longValue());
            states.add(ingestion(well, "state"));
            assertThat(Instant.now()).as("the survivor stores the dead replica's partitions; survivor log "
                    + survivor.log).isBefore(deadline);
            Thread.sleep(100);
        }
    }

    private static void awaitCaughtUp(ServerProcess survivor) {
        Awaitility.await("the survivor's ingestion check caught up").atMost(60, TimeUnit.SECONDS)
                .pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                    Response well = given().baseUri(survivor.managementUrl()).get("/q/health/well");
                    assertThat(well.statusCode()).as(well.asString()).isEqualTo(200);
                    assertThat(((Number) ingestion(well, "lag")).longValue()).isZero();
                    assertThat(ingestion(well, "state")).isEqualTo("caught up");
                });
    }

    private static Object ingestion(Response health, String key) {
        return health.jsonPath().get("checks.find { it.name == 'ingestion' }.data." + key);
    }

    /** The consumer group once both replicas are members and each holds partitions of the YARN topic. */
    private static Map<String, Set<Integer>> awaitTwoMembersHoldingPartitions() {
        Map<String, Set<Integer>> assignment = new HashMap<>();
        Awaitility.await("two members, each holding YARN partitions").atMost(120, TimeUnit.SECONDS)
                .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                    assignment.clear();
                    assignment.putAll(members());
                    assertThat(assignment).hasSize(2);
                    assertThat(assignment.values()).allMatch(partitions -> !partitions.isEmpty());
                });
        System.out.println("[fairledger-it] YARN partitions by member: " + assignment);
        return assignment;
    }

    /** The dead member's partitions: those of the member no longer in the group once the survivor holds them all. */
    private static Set<Integer> deadPartitions(Map<String, Set<Integer>> before) {
        Map<String, Set<Integer>> after = new HashMap<>();
        Awaitility.await("one member left in the group").atMost(60, TimeUnit.SECONDS)
                .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                    after.clear();
                    after.putAll(members());
                    assertThat(after).hasSize(1);
                    assertThat(before).containsKeys(after.keySet().toArray(String[]::new));
                });
        return before.entrySet().stream().filter(e -> !after.containsKey(e.getKey())).findFirst().orElseThrow()
                .getValue();
    }

    private static Map<String, Set<Integer>> members() throws Exception {
        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(GROUP)).all().get(10, TimeUnit.SECONDS)
                .get(GROUP);
        Map<String, Set<Integer>> members = new HashMap<>();
        for (MemberDescription member : group.members()) {
            members.put(member.consumerId(), member.assignment().topicPartitions().stream()
                    .filter(tp -> tp.topic().equals(TOPIC)).map(TopicPartition::partition)
                    .collect(Collectors.toCollection(TreeSet::new)));
        }
        return members;
    }

    /** Prints when the survivor stored the first and the last fact of the dead replica's partitions, from the kill. */
    private static void report(int round, Instant killedAt, Set<Integer> dead, Map<Integer, Long> beforeKill)
            throws Exception {
        Instant first = null;
        Instant last = null;
        for (int partition : dead) {
            Instant[] stored = storedAfter(partition, beforeKill.get(partition));
            first = first == null || stored[0].isBefore(first) ? stored[0] : first;
            last = last == null || stored[1].isAfter(last) ? stored[1] : last;
        }
        System.out.printf("[fairledger-it] takeover round %d: dead replica's partitions %s; first fact stored by the "
                + "survivor %.2f s after the kill, last %.2f s%n", round, dead, seconds(killedAt, first),
                seconds(killedAt, last));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }

    /** The first and last {@code ingested_at} of the facts of a partition from an offset on. */
    private static Instant[] storedAfter(int partition, long offset) throws Exception {
        try (Connection db = database();
                PreparedStatement st = db.prepareStatement("select min(ingested_at), max(ingested_at) from ledger_fact"
                        + " where source_topic = ? and source_partition = ? and source_offset >= ?")) {
            st.setString(1, TOPIC);
            st.setInt(2, partition);
            st.setLong(3, offset);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                Timestamp first = rs.getTimestamp(1);
                assertThat(first).as("facts of partition %d after offset %d", partition, offset).isNotNull();
                return new Instant[]{first.toInstant(), rs.getTimestamp(2).toInstant()};
            }
        }
    }

    /**
     * Cluster ids whose events, keyed by cluster as the replay command keys them, fill every partition, one cluster
     * each.
     */
    private static List<String> onePerPartition() {
        Map<Integer, String> byPartition = new TreeMap<>();
        for (int i = 0; byPartition.size() < PARTITIONS; i++) {
            String cluster = "it-replica-" + i;
            byPartition.putIfAbsent(Utils.toPositive(Utils.murmur2(cluster.getBytes(StandardCharsets.UTF_8)))
                    % PARTITIONS, cluster);
        }
        return new ArrayList<>(byPartition.values());
    }

    /** Publishes round {@code round}'s containers of every cluster. */
    private static void publish(Map<String, List<String>> workload, int round) {
        int from = 3 * CONTAINERS_PER_ROUND * round;
        workload.forEach((cluster, lines) -> lines.subList(from, from + 3 * CONTAINERS_PER_ROUND)
                .forEach(line -> producer.send(new ProducerRecord<>(TOPIC, cluster, line))));
        producer.flush();
    }

    private static Map<Integer, Long> endOffsets() throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            request.put(new TopicPartition(TOPIC, p), OffsetSpec.latest());
        }
        Map<Integer, Long> end = new TreeMap<>();
        admin.listOffsets(request).all().get(10, TimeUnit.SECONDS)
                .forEach((tp, info) -> end.put(tp.partition(), info.offset()));
        return end;
    }

    private static void awaitStored(Map<Integer, Long> end) {
        Awaitility.await("every published event stored").atMost(180, TimeUnit.SECONDS)
                .pollInterval(1, TimeUnit.SECONDS).until(() -> waiting(end) == 0);
    }

    /** The records of the YARN topic before {@code end} that are not stored, from the offsets stored with the facts. */
    private static long waiting(Map<Integer, Long> end) throws Exception {
        Map<Integer, Long> stored = new HashMap<>();
        try (Connection db = database();
                PreparedStatement st = db.prepareStatement(
                        "select partition, next_offset from consumer_offset where group_id = ? and topic = ?")) {
            st.setString(1, GROUP);
            st.setString(2, TOPIC);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    stored.put(rs.getInt(1), rs.getLong(2));
                }
            }
        }
        long waiting = 0;
        for (Map.Entry<Integer, Long> e : end.entrySet()) {
            waiting += Math.max(0, e.getValue() - stored.getOrDefault(e.getKey(), 0L));
        }
        return waiting;
    }

    private static long factCount(String cluster) throws Exception {
        try (Connection db = database();
                PreparedStatement st = db.prepareStatement("select count(*) from ledger_fact where cluster_id = ?")) {
            st.setString(1, cluster);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void register(ServerProcess server, String cluster) {
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON)
                .body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}").post("/api/v1/admin/clusters")
                .then().statusCode(201);
        given().baseUri(server.baseUrl()).contentType(ContentType.JSON).body(YarnWorkload.settings(START, QUEUES))
                .put("/api/v1/admin/clusters/" + cluster + "/ledger-settings").then().statusCode(200);
    }

    private static Connection database() throws Exception {
        return ServerProcess.database(postgres);
    }

    private static String bootstrap() {
        return kafka.config().get("kafka.bootstrap.servers");
    }

    private static Map<String, String> serverEnv() {
        return ServerProcess.environment(postgres, kafka);
    }
}
