package io.fairledger.integrations.bridgetests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.AbstractParentQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerCapacityScheduler;
import io.fairledger.integrations.yarn.GrantsClient;
import io.fairledger.testsupport.Processes;

/**
 * A real YARN (MiniYARNCluster) running {@link FairledgerCapacityScheduler} with two queues in weight mode, the
 * packaged fairledger server on a real Kafka and PostgreSQL, and real applications. The operator's own settings
 * ({@code capacity-scheduler.xml} on the test classpath: {@code root.bursty} 2w, {@code root.steady} 1w) make YARN
 * serve {@code root.bursty} first and give it two thirds of the cluster. Once fairledger has booked an application of
 * {@code root.bursty}, the grants serve {@code root.steady} first: the scheduler's queues take the grants' shares as
 * weights and their order as priorities, and the Capacity Scheduler's own ordering serves {@code root.steady} first.
 * With the server unreachable the operator's settings come back, and YARN's own order with them.
 */
class CapacitySchedulerIT {

    private static final String CLUSTER = "it-yarn-capacity";

    private static ServerStack stack;

    @BeforeAll
    static void start() {
        stack = ServerStack.start("fairledger-capacity-it", Map.of());
        stack.server().register(CLUSTER, "YARN", YarnBridgeIT.settings(Instant.now().minus(1, ChronoUnit.HOURS)));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    @Test
    void queuesFollowTheGrantsAndGetTheOperatorsSettingsBackWithoutThem() throws Exception {
        Map<String, String> keys = Map.of(BridgeConfig.CLUSTER, CLUSTER, BridgeConfig.BOOTSTRAP,
                stack.bootstrap(), GrantsClient.URL, stack.server().baseUrl(),
                GrantsClient.POLL_MS, "300", BridgeConfig.DEMAND_INTERVAL, "500",
                "yarn.scheduler.configuration.store.class", "memory");
        try (MiniYarn yarn = MiniYarn.capacity("fairledger-capacity-it", keys, stack.dir())) {
            FairledgerCapacityScheduler scheduler = yarn.capacityScheduler();
            ApplicationId warmUp = yarn.submit("root.bursty", 2, 512, 1, 2);
            Awaitility.await("warm-up finished").atMost(180, TimeUnit.SECONDS).until(() -> yarn.finished(warmUp));

            List<String> grantsOrder = List.of("root.steady", "root.bursty");
            Awaitility.await("grants serve root.steady first").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS)
                    .untilAsserted(() -> assertThat(grants().keySet()).containsExactlyElementsOf(grantsOrder));
            Awaitility.await("the queues take the grants' shares and order").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                        Map<String, Double> shares = grants();
                        for (String queue : grantsOrder) {
                            assertThat(queue(scheduler, queue).getQueueCapacities().getWeight()).as(queue)
                                    .isCloseTo((float) Math.max(shares.get(queue), 0.001), within(0.0006f));
                        }
                        assertThat(served(scheduler)).isEqualTo(grantsOrder);
                        assertThat(scheduler.followingGrants()).isTrue();
                    });
            System.out.println("[fairledger-integrations] capacity scheduler: grants " + grants() + ", weights "
                    + weights(scheduler) + " after " + scheduler.grantMutations() + " mutations");

            // more than the cluster holds (12 GB of tasks on 8 GB): both queues' demand, and the grants' shares of it
            List<ApplicationId> apps = List.of(yarn.submit("root.steady", 6, 1024, 1, 30),
                    yarn.submit("root.bursty", 6, 1024, 1, 30));
            // 240 s: in a full CI run on two cores root.bursty once got no share for over 120 s (alone: a few seconds)
            Awaitility.await("the queues take the grants' shares of both queues' demand").atMost(240, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                        Map<String, Double> shares = grants();
                        assertThat(shares.get("root.bursty")).isGreaterThan(0.001);
                        assertThat(shares.get("root.steady")).isGreaterThan(shares.get("root.bursty"));
                        for (String queue : grantsOrder) {
                            assertThat(queue(scheduler, queue).getQueueCapacities().getWeight()).as(queue)
                                    .isCloseTo(shares.get(queue).floatValue(), within(0.0006f));
                        }
                    });
            System.out.println("[fairledger-integrations] capacity scheduler under demand: grants " + grants()
                    + ", weights " + weights(scheduler) + ", running containers " + running(yarn, apps));
            Awaitility.await("applications under the grants").atMost(300, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> yarn.finished(apps.get(0)) && yarn.finished(apps.get(1)));

            GrantsClient.install(new GrantsClient("http://127.0.0.1:" + Processes.freePort(), CLUSTER, null, 200));
            Awaitility.await("the operator's settings without the server").atMost(60, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS).untilAsserted(() -> {
                        assertThat(weights(scheduler)).isEqualTo(Map.of("root.steady", 1f, "root.bursty", 2f));
                        assertThat(served(scheduler)).as("YARN's own order").isEqualTo(
                                List.of("root.bursty", "root.steady"));
                        assertThat(scheduler.followingGrants()).isFalse();
                    });
            ApplicationId underFallback = yarn.submit("root.steady", 2, 512, 1, 1);
            Awaitility.await("application under the operator's settings").atMost(180, TimeUnit.SECONDS)
                    .until(() -> yarn.finished(underFallback));
            for (ApplicationId id : List.of(warmUp, apps.get(0), apps.get(1), underFallback)) {
                assertThat(yarn.report(id).getFinalApplicationStatus()).as(id.toString())
                        .isEqualTo(FinalApplicationStatus.SUCCEEDED);
            }
        }
    }

    /** Running containers per application, as the NodeManagers have them. */
    private static Map<ApplicationId, Long> running(MiniYarn yarn, List<ApplicationId> apps) {
        Map<ApplicationId, Long> running = new LinkedHashMap<>();
        for (ApplicationId id : apps) {
            running.put(id, yarn.nodeContainers(id).values().stream().filter(s -> s == ContainerState.RUNNING)
                    .count());
        }
        return running;
    }

    /** The order in which the Capacity Scheduler's root serves its children now. */
    private static List<String> served(FairledgerCapacityScheduler scheduler) {
        List<String> order = new ArrayList<>();
        ((AbstractParentQueue) scheduler.getRootQueue()).getQueueOrderingPolicy().getAssignmentIterator("")
                .forEachRemaining(q -> order.add(q.getQueuePath()));
        return order;
    }

    private static Map<String, Float> weights(FairledgerCapacityScheduler scheduler) {
        Map<String, Float> weights = new LinkedHashMap<>();
        for (String queue : List.of("root.steady", "root.bursty")) {
            weights.put(queue, queue(scheduler, queue).getQueueCapacities().getWeight());
        }
        return weights;
    }

    private static CSQueue queue(FairledgerCapacityScheduler scheduler, String path) {
        return scheduler.getQueue(path);
    }

    /** The grants of root's children now, in the order to serve them: tenant to granted share. */
    private static Map<String, Double> grants() throws Exception {
        JsonNode grants = new ObjectMapper().readTree(Http.expect(200,
                Http.send("GET", stack.server().baseUrl() + "/api/v1/clusters/" + CLUSTER + "/grants", null)));
        Map<String, Double> shares = new LinkedHashMap<>();
        for (JsonNode level : grants.get("levels")) {
            if (level.get("parent").asText().equals("root")) {
                level.get("grants").forEach(g -> shares.put(g.get("tenant").asText(), g.get("share").asDouble()));
            }
        }
        return shares;
    }
}
