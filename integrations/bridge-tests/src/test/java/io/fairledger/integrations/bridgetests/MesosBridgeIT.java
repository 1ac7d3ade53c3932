package io.fairledger.integrations.bridgetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.integrations.bridgetests.FakeMesosMaster.Events;
import io.fairledger.integrations.mesos.GrantWeights;
import io.fairledger.integrations.mesos.KafkaSink;
import io.fairledger.integrations.mesos.MesosBridge;
import io.fairledger.integrations.yarn.YarnEvents;

/**
 * The Mesos bridge against {@link FakeMesosMaster}: it is sent to the leader by a 307, its stream breaks in the middle
 * of a record, a task finishes while it is disconnected, a later stream falls silent (a missed heartbeat). The facts
 * fairledger books from what the bridge published equal those of the same history sent straight to Kafka in the Mesos
 * shapes fairledger accepts, event by event, with nothing missing.
 */
class MesosBridgeIT {

    private static final String BRIDGED = "it-mesos-bridged";
    private static final String DIRECT = "it-mesos-direct";
    private static final String FW = "fw-0001";
    private static final double T0 = 1_795_400_000.125;

    private static ServerStack stack;

    @BeforeAll
    static void start() {
        stack = ServerStack.start("fairledger-mesos-it", Map.of());
        String settings = "{\"registeredAt\":\"" + Instant.ofEpochSecond((long) T0).minus(1, ChronoUnit.HOURS)
                + "\",\"capacity\":{\"vcores\":16,\"memoryMb\":32768,\"gpus\":0},\"period\":{\"length\":\"PT1H\"},"
                + "\"tenants\":[{\"path\":\"analytics\",\"weight\":1},{\"path\":\"science\",\"weight\":1}]}";
        stack.server().register(BRIDGED, "MESOS", settings);
        stack.server().register(DIRECT, "MESOS", settings);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void factsThroughReconnectsRedirectAndMissedHeartbeatEqualTheHistorySentDirectly() throws Exception {
        List<ObjectNode> history = new ArrayList<>();
        MesosBridge.Settings settings;
        try (FakeMesosMaster master = new FakeMesosMaster()) {
            ObjectNode agentA = Events.agentAdded("agent-S0", 8, 16384, 1_795_399_000_000_000_000L);
            ObjectNode agentB = Events.agentAdded("agent-S1", 8, 16384, 1_795_399_100_000_000_000L);
            master.apply(agentA);
            master.apply(agentB);
            history.add(agentA);
            history.add(agentB);

            settings = new MesosBridge.Settings(List.of(URI.create(master.notLeader())), BRIDGED,
                    Duration.ofSeconds(3), Duration.ofMillis(200));
            try (MesosBridge bridge = new MesosBridge(settings,
                    new KafkaSink(Map.of("bootstrap.servers", bootstrap()))).start()) {
                // first stream, reached through the standby's redirect
                FakeMesosMaster.Stream first = master.awaitSubscription();
                send(first, history, Events.taskAdded(FW, "t1", "agent-S0", "analytics", 2, 4096));
                send(first, history, Events.taskUpdated(FW, "t1", "agent-S0", "TASK_RUNNING", T0 + 1.5, "u-t1-r"));
                send(first, history, Events.taskAdded(FW, "t2", "agent-S1", "science", 1, 2048));
                send(first, history, Events.taskUpdated(FW, "t2", "agent-S1", "TASK_STARTING", T0 + 2.25, "u-t2-s"));
                send(first, history, Events.taskUpdated(FW, "t2", "agent-S1", "TASK_RUNNING", T0 + 2.75, "u-t2-r"));
                first.heartbeat();
                // the stream breaks inside a record; t1 finishes and t3 starts while the bridge is away
                ObjectNode t1Finished = Events.taskUpdated(FW, "t1", "agent-S0", "TASK_FINISHED", T0 + 30.333,
                        "u-t1-f");
                first.breakMidRecord(t1Finished);
                master.apply(t1Finished);
                history.add(t1Finished);
                offline(master, history, Events.taskAdded(FW, "t3", "agent-S0", "analytics", 4, 8192));
                offline(master, history,
                        Events.taskUpdated(FW, "t3", "agent-S0", "TASK_RUNNING", T0 + 31.001, "u-t3-r"));

                // second stream: the snapshot has all of that; then it falls silent, no heartbeat
                FakeMesosMaster.Stream second = master.awaitSubscription();
                send(second, history, Events.taskUpdated(FW, "t2", "agent-S1", "TASK_FAILED", T0 + 40.5, "u-t2-f"));
                ObjectNode agentC = Events.agentAdded("agent-S2", 16, 65536, 1_795_400_041_000_000_000L);
                send(second, history, agentC);
                offline(master, history,
                        Events.taskUpdated(FW, "t3", "agent-S0", "TASK_FINISHED", T0 + 50.875, "u-t3-f"));

                // third stream, after the missed heartbeat: the bridge gave up on the silent one by itself
                FakeMesosMaster.Stream third = master.awaitSubscription();
                send(third, history, Events.taskAdded(FW, "t4", "agent-S2", "science", 0.5, 512));
                send(third, history, Events.taskUpdated(FW, "t4", "agent-S2", "TASK_RUNNING", T0 + 60.01, "u-t4-r"));
                send(third, history, Events.taskUpdated(FW, "t4", "agent-S2", "TASK_KILLED", T0 + 61.99, "u-t4-k"));
                third.send(Events.agentRemoved("agent-S1"));
                third.heartbeat();

                assertThat(master.redirects()).as("307s followed, one per subscription").isGreaterThanOrEqualTo(3);
                sendDirectly(history);
                Awaitility.await("bridged facts equal the direct ones").atMost(120, TimeUnit.SECONDS)
                        .pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                            Map<String, Integer> directKinds = new HashMap<>();
                            Map<String, Integer> bridgedKinds = new HashMap<>();
                            Map<String, LedgerFacts.Task> direct = LedgerFacts.tasks(stack.postgres(), DIRECT,
                                    directKinds);
                            Map<String, LedgerFacts.Task> bridged = LedgerFacts.tasks(stack.postgres(), BRIDGED,
                                    bridgedKinds);
                            assertThat(direct).hasSize(4);
                            assertThat(direct.values()).allMatch(t -> t.finish() != null);
                            assertThat(bridged).isEqualTo(direct);
                            assertThat(LedgerFacts.nodes(stack.postgres(), BRIDGED)).as("node capacity facts")
                                    .containsAll(LedgerFacts.nodes(stack.postgres(), DIRECT))
                                    .anyMatch(n -> n.startsWith("agent-S1 0/0"));
                        });
                assertThat(bridge.subscriptions()).as("subscriptions, each with its snapshot")
                        .isGreaterThanOrEqualTo(3);
            }
        }
    }

    /**
     * Grants as role weights: with demand booked for both roles, the grants give them different shares; the bridge's
     * weight updater, pointed at a standby master, sends the leader one {@code UPDATE_WEIGHTS} with each role's
     * granted share as its weight.
     */
    @Test
    void grantsBecomeRoleWeightsAtTheLeadingMaster() throws Exception {
        String cluster = "it-mesos-weights";
        stack.server().register(cluster, "MESOS", "{\"registeredAt\":\""
                + Instant.now().minus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.SECONDS)
                + "\",\"capacity\":{\"vcores\":16,\"memoryMb\":32768,\"gpus\":0},\"period\":{\"length\":\"PT1H\"},"
                + "\"tenants\":[{\"path\":\"analytics\",\"weight\":1},{\"path\":\"science\",\"weight\":1}]}");
        try (KafkaSink sink = new KafkaSink(Map.of("bootstrap.servers", bootstrap()))) {
            long now = System.currentTimeMillis();
            sink.publish(YarnEvents.DEMAND, cluster,
                    YarnEvents.demand(cluster, "analytics", Resource.newInstance(24576, 12), now));
            sink.publish(YarnEvents.DEMAND, cluster,
                    YarnEvents.demand(cluster, "science", Resource.newInstance(4096, 2), now));
        }
        Map<String, Double> shares = new TreeMap<>();
        Awaitility.await("grants with both roles' demand").atMost(120, TimeUnit.SECONDS)
                .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                    shares.clear();
                    JsonNode grants = new ObjectMapper().readTree(Http.expect(200,
                            Http.send("GET", stack.server().baseUrl() + "/api/v1/clusters/" + cluster + "/grants",
                                    null)));
                    for (JsonNode level : grants.path("levels")) {
                        for (JsonNode grant : level.path("grants")) {
                            shares.put(grant.get("tenant").asText(), grant.get("share").asDouble());
                        }
                    }
                    assertThat(shares).containsOnlyKeys("root.analytics", "root.science");
                    assertThat(shares.get("root.science")).isPositive();
                    assertThat(shares.get("root.analytics")).isGreaterThan(shares.get("root.science"));
                });
        try (FakeMesosMaster master = new FakeMesosMaster();
                GrantWeights weights = new GrantWeights(stack.server().baseUrl(), cluster, null,
                        List.of(URI.create(master.notLeader())), Duration.ofMillis(500)).start()) {
            Map<String, Double> sent = master.awaitWeightUpdate();
            assertThat(sent.keySet()).containsExactly("analytics", "science");
            sent.forEach((role, weight) -> assertThat(weight).as(role)
                    .isCloseTo(shares.get("root." + role), within(1e-9)));
            assertThat(master.redirects()).as("sent through the standby's 307").isGreaterThanOrEqualTo(1);
        }
    }

    private static void send(FakeMesosMaster.Stream stream, List<ObjectNode> history, ObjectNode event) {
        stream.send(event);
        history.add(event);
    }

    private static void offline(FakeMesosMaster master, List<ObjectNode> history, ObjectNode event) {
        master.apply(event);
        history.add(event);
    }

    /**
     * The history straight to Kafka in the Mesos shapes the server accepts: each status as the master's
     * {@code TASK_UPDATED} with the cluster and the task's role and resources added at the top level; each agent as a
     * {@code CapacityChanged} at its registration time.
     */
    private static void sendDirectly(List<ObjectNode> history) {
        Map<String, ObjectNode> tasks = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (ObjectNode event : history) {
                String topic;
                ObjectNode value;
                switch (event.get("type").asText()) {
                    case "TASK_ADDED" -> {
                        ObjectNode task = (ObjectNode) event.get("task_added").get("task");
                        tasks.put(task.get("task_id").get("value").asText(), task);
                        continue;
                    }
                    case "TASK_UPDATED" -> {
                        ObjectNode task = tasks.get(
                                event.get("task_updated").get("status").get("task_id").get("value").asText());
                        value = event.deepCopy();
                        value.put("cluster", DIRECT).put("role", task.get("allocation_info").get("role").asText())
                                .put("cpus", task.get("resources").get(0).get("scalar").get("value").asDouble())
                                .put("memMb", task.get("resources").get(1).get("scalar").get("value").asDouble());
                        topic = "fairledger.mesos.tasks";
                    }
                    case "AGENT_ADDED" -> {
                        ObjectNode agent = (ObjectNode) event.get("agent_added").get("agent");
                        String id = agent.get("agent_info").get("id").get("value").asText();
                        long at = agent.get("registered_time").get("nanoseconds").asLong() / 1_000_000;
                        value = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
                                .put("type", "CapacityChanged").put("eventId", "direct-" + id).put("cluster", DIRECT)
                                .put("eventTime", at).put("change", "NODE_ADDED").put("node", id)
                                .put("cpus", agent.get("total_resources").get(0).get("scalar").get("value").asDouble())
                                .put("memoryMb",
                                        agent.get("total_resources").get(1).get("scalar").get("value").asLong());
                        topic = "fairledger.capacity";
                    }
                    default -> throw new IllegalStateException("unexpected " + event);
                }
                producer.send(new ProducerRecord<>(topic, DIRECT.getBytes(StandardCharsets.UTF_8),
                        value.toString().getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private static String bootstrap() {
        return stack.bootstrap();
    }
}
