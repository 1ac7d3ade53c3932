package io.fairledger.integrations.bridgetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationResourceUsageReport;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSParentQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerFairScheduler;
import io.fairledger.integrations.yarn.FairledgerGrantsPolicy;
import io.fairledger.integrations.yarn.GrantsClient;
import io.fairledger.testsupport.Processes;

/**
 * A real YARN (MiniYARNCluster) with the bridge installed, the packaged fairledger server on a real Kafka and
 * PostgreSQL, and real applications in two queues. Every container YARN ran becomes a start and a finish with the queue,
 * size and times YARN recorded: per application, the books give exactly YARN's own {@code vcoreSeconds} and
 * {@code memorySeconds}. Mid-run the shipper is stopped and its checkpoint rewound, as after a crash between Kafka's
 * acknowledgement and the checkpoint: everything is sent again, and nothing is lost or counted twice.
 */
class YarnBridgeIT {

    private static final String CLUSTER = "it-yarn";

    private static ServerStack stack;

    @BeforeAll
    static void start() {
        stack = ServerStack.start("fairledger-yarn-it", Map.of());
        stack.server().register(CLUSTER, "YARN", settings(Instant.now().minus(1, ChronoUnit.HOURS)));
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    static String settings(Instant registeredAt) {
        return settings(registeredAt, MiniYarn.NODES * MiniYarn.NODE_VCORES, MiniYarn.NODES * MiniYarn.NODE_MEMORY_MB);
    }

    /**
     * Ledger settings with the given registration capacity. The books' capacity is this plus the nodes the bridge
     * reports, so a cluster whose capacity comes only from its NodeManagers registers with 0 and 0.
     */
    static String settings(Instant registeredAt, int vcores, int memoryMb) {
        return "{\"registeredAt\":\"" + registeredAt.truncatedTo(ChronoUnit.SECONDS) + "\","
                + "\"capacity\":{\"vcores\":" + vcores + ",\"memoryMb\":" + memoryMb
                + ",\"gpus\":0},\"period\":{\"length\":\"PT1H\"},"
                + "\"tenants\":[{\"path\":\"root.steady\",\"weight\":1},{\"path\":\"root.bursty\",\"weight\":1}]}";
    }

    static String allocations(String rootPolicy) {
        return "<?xml version=\"1.0\"?><allocations><queue name=\"root\"><schedulingPolicy>" + rootPolicy
                + "</schedulingPolicy><queue name=\"steady\"><weight>1</weight></queue>"
                + "<queue name=\"bursty\"><weight>1</weight></queue></queue></allocations>";
    }

    @Test
    void everyContainerIsAFactWithYarnsOwnNumbersAndAShipperRestartLosesNothing() throws Exception {
        Map<String, String> bridge = Map.of(BridgeConfig.CLUSTER, CLUSTER, BridgeConfig.BOOTSTRAP,
                stack.bootstrap(), BridgeConfig.DEMAND_INTERVAL, "500");
        try (MiniYarn yarn = new MiniYarn("fairledger-bridge-it", bridge, allocations("fair"), stack.dir())) {
            Map<ApplicationId, String> queues = new LinkedHashMap<>();
            queues.put(yarn.submit("root.steady", 4, 512, 1, 3), "root.steady");
            queues.put(yarn.submit("root.bursty", 4, 1024, 2, 2), "root.bursty");
            queues.put(yarn.submit("root.steady", 3, 256, 1, 4), "root.steady");
            queues.put(yarn.submit("root.bursty", 3, 768, 1, 2), "root.bursty");

            FairledgerFairScheduler scheduler = yarn.scheduler();
            Awaitility.await("first events shipped").atMost(120, TimeUnit.SECONDS)
                    .until(() -> scheduler.shipper().sent() >= 6);
            scheduler.stopShipper();
            long sentBefore = scheduler.shipper().sent();
            Path checkpoint = scheduler.journalDir().resolve("shipped");
            System.out.println("[fairledger-integrations] shipper stopped after " + sentBefore + " events at "
                    + Files.readString(checkpoint).trim() + "; rewinding to the journal's start");
            Files.writeString(checkpoint, "1 0\n");
            scheduler.startShipper();

            Awaitility.await("applications finished").atMost(240, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> {
                        for (ApplicationId id : queues.keySet()) {
                            if (!yarn.finished(id)) {
                                return false;
                            }
                        }
                        return true;
                    });
            for (ApplicationId id : queues.keySet()) {
                assertThat(yarn.report(id).getFinalApplicationStatus())
                        .as(id + " final status (" + yarn.report(id).getDiagnostics() + ")")
                        .isEqualTo(FinalApplicationStatus.SUCCEEDED);
            }

            Map<String, Integer> kinds = new HashMap<>();
            Awaitility.await("facts equal to YARN's usage").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                        kinds.clear();
                        Map<String, LedgerFacts.Task> tasks = LedgerFacts.tasks(stack.postgres(), CLUSTER, kinds);
                        for (ApplicationId id : queues.keySet()) {
                            // read again each time: until its application master's container has exited, YARN's
                            // report of a FINISHED application still counts that container as running
                            assertApplication(id.toString(), queues.get(id),
                                    yarn.report(id).getApplicationResourceUsageReport(), new MiniYarn.Usage(0, 0),
                                    Long.MIN_VALUE, tasks);
                        }
                    });
            long resent = sentBefore + scheduler.shipper().sent();
            System.out.println("[fairledger-integrations] facts by kind " + kinds + "; events sent " + resent);
            assertThat(kinds.get("TaskStarted")).isEqualTo(kinds.get("TaskFinished"));
            assertThat(kinds.get("NodeCapacity")).as("one per NodeManager registration").isEqualTo(MiniYarn.NODES);
            assertThat(resent).as("events sent, with the rewound ones twice")
                    .isGreaterThan(kinds.get("TaskStarted") * 2L + MiniYarn.NODES);
        }
    }

    /**
     * The policy installed on {@code root} in a real YARN: once fairledger has booked an application of
     * {@code root.bursty}, its grants serve {@code root.steady} first, and the policy sorts the queues so, where YARN's
     * fair share policy (equal usage, then by name) puts {@code root.bursty} first. Applications in both queues run to
     * completion under it. With the server unreachable the policy falls back to the fair share order, and
     * applications still run.
     */
    @Test
    void schedulingPolicyFollowsTheGrantsAndFallsBackToFairShareWithoutThem() throws Exception {
        String cluster = "it-yarn-policy";
        stack.server().register(cluster, "YARN", settings(Instant.now().minus(1, ChronoUnit.HOURS)));
        Map<String, String> keys = Map.of(BridgeConfig.CLUSTER, cluster, BridgeConfig.BOOTSTRAP,
                stack.bootstrap(), GrantsClient.URL, stack.server().baseUrl(),
                GrantsClient.POLL_MS, "300");
        Path policyDir = Files.createDirectories(stack.dir().resolve("policy"));
        try (MiniYarn yarn = new MiniYarn("fairledger-policy-it", keys,
                allocations(FairledgerGrantsPolicy.class.getName()), policyDir)) {
            FSParentQueue root = yarn.scheduler().getQueueManager().getParentQueue("root", false);
            FairledgerGrantsPolicy policy = (FairledgerGrantsPolicy) root.getPolicy();
            ApplicationId warmUp = yarn.submit("root.bursty", 2, 512, 1, 2);
            Awaitility.await("warm-up finished").atMost(180, TimeUnit.SECONDS).until(() -> yarn.finished(warmUp));

            List<String> expected = List.of("root.steady", "root.bursty");
            Awaitility.await("grants serve root.steady first").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS)
                    .untilAsserted(() -> assertThat(grantOrder(cluster, "root")).isEqualTo(expected));
            Awaitility.await("the policy orders by the grants").atMost(60, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(sorted(root, policy.getComparator())).isEqualTo(expected));
            assertThat(policy.fallingBack()).isFalse();
            assertThat(sorted(root, new FairSharePolicy().getComparator())).as("YARN's own order")
                    .isEqualTo(List.of("root.bursty", "root.steady"));

            List<ApplicationId> apps = List.of(yarn.submit("root.steady", 3, 512, 1, 1),
                    yarn.submit("root.bursty", 3, 512, 1, 1));
            Awaitility.await("applications under the policy").atMost(180, TimeUnit.SECONDS)
                    .until(() -> yarn.finished(apps.get(0)) && yarn.finished(apps.get(1)));

            GrantsClient.install(new GrantsClient("http://127.0.0.1:" + Processes.freePort(), cluster, null, 200));
            Awaitility.await("fallback without the server").atMost(60, TimeUnit.SECONDS).untilAsserted(() -> {
                assertThat(sorted(root, policy.getComparator())).isEqualTo(List.of("root.bursty", "root.steady"));
                assertThat(policy.fallingBack()).isTrue();
            });
            ApplicationId underFallback = yarn.submit("root.steady", 2, 512, 1, 1);
            Awaitility.await("application under the fallback").atMost(180, TimeUnit.SECONDS)
                    .until(() -> yarn.finished(underFallback));
            for (ApplicationId id : List.of(warmUp, apps.get(0), apps.get(1), underFallback)) {
                assertThat(yarn.report(id).getFinalApplicationStatus()).as(id.toString())
                        .isEqualTo(FinalApplicationStatus.SUCCEEDED);
            }
        }
    }

    /**
     * The ResourceManager stops while containers run, and a new one starts on the same state store and journal
     * (work-preserving recovery): the first application's containers run across the restart, the second's complete
     * while no ResourceManager is there, a third application runs after it. Every container the NodeManagers launched
     * is in the books once, started and finished, in its queue; the NodeManagers registering again do not add their
     * capacity twice; each application has exactly YARN's own usage, where YARN's, of an attempt running at the stop,
     * is what its state store held of it and the containers the new ResourceManager finished.
     */
    @Test
    void resourceManagerRestartLosesAndDoubleCountsNoContainer() throws Exception {
        String cluster = "it-yarn-restart";
        stack.server().register(cluster, "YARN", settings(Instant.now().minus(1, ChronoUnit.HOURS), 0, 0));
        Path restartDir = Files.createDirectories(stack.dir().resolve("restart"));
        Map<String, String> keys = Map.of(BridgeConfig.CLUSTER, cluster, BridgeConfig.BOOTSTRAP,
                stack.bootstrap(), "yarn.resourcemanager.recovery.enabled", "true",
                "yarn.resourcemanager.store.class",
                "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore",
                "yarn.resourcemanager.fs.state-store.uri", restartDir.resolve("rm-state").toUri().toString(),
                "yarn.resourcemanager.work-preserving-recovery.scheduling-wait-ms", "1000");
        try (MiniYarn yarn = new MiniYarn("fairledger-restart-it", keys, allocations("fair"), restartDir, true)) {
            // each application's tasks run until the test releases them: across the restart, or during the stop
            Path acrossEnds = restartDir.resolve("across-ends");
            Path duringEnds = restartDir.resolve("during-ends");
            ApplicationId across = yarn.submitUntil("root.steady", 2, 512, 1, acrossEnds);
            Awaitility.await("the steady tasks running").atMost(180, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> running(yarn.nodeContainers(across)) == 3);
            ApplicationId during = yarn.submitUntil("root.bursty", 2, 512, 1, duringEnds);
            Awaitility.await("the bursty tasks running").atMost(180, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> running(yarn.nodeContainers(during)) == 3);
            long shippedBefore = yarn.scheduler().shipper().sent();
            yarn.stopResourceManager();
            System.out.println("[fairledger-integrations] ResourceManager stopped after " + shippedBefore
                    + " events shipped; containers " + yarn.nodeContainers(across) + yarn.nodeContainers(during));
            // what the new ResourceManager will start the running attempts' usage from (see MiniYarn)
            Map<ApplicationId, MiniYarn.Usage> stored = Map.of(across, yarn.storedUsageOfRunningAttempts(across),
                    during, yarn.storedUsageOfRunningAttempts(during));
            System.out.println("[fairledger-integrations] usage stored of the running attempts " + stored);
            // the tasks, not the application masters: YARN itself may fail an application master that lost its
            // ResourceManager for too long (its second attempt runs after the restart, booked like any other)
            Files.createFile(duringEnds);
            Awaitility.await("the bursty tasks completed without a ResourceManager").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS)
                    .until(() -> completed(tasks(yarn.nodeContainers(during))) == 2);
            assertThat(running(tasks(yarn.nodeContainers(across)))).as("the steady tasks still run").isEqualTo(2);
            long restartedAt = System.currentTimeMillis();
            yarn.startResourceManager();
            System.out.println("[fairledger-integrations] ResourceManager started again");
            Awaitility.await("the steady tasks recovered by the new ResourceManager").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(200, TimeUnit.MILLISECONDS).until(() -> tasks(yarn.nodeContainers(across)).keySet()
                            .stream()
                            .allMatch(id -> yarn.scheduler().getRMContainer(ContainerId.fromString(id)) != null));
            Files.createFile(acrossEnds);
            ApplicationId after = yarn.submit("root.bursty", 3, 256, 1, 2);

            List<ApplicationId> apps = List.of(across, during, after);
            Awaitility.await("applications finished").atMost(300, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                    .until(() -> yarn.finished(across) && yarn.finished(during) && yarn.finished(after));
            for (ApplicationId id : apps) {
                assertThat(yarn.report(id).getFinalApplicationStatus())
                        .as(id + " final status (" + yarn.report(id).getDiagnostics() + ")")
                        .isEqualTo(FinalApplicationStatus.SUCCEEDED);
            }
            Map<String, String> queues = Map.of(across.toString(), "root.steady", during.toString(), "root.bursty",
                    after.toString(), "root.bursty");
            Map<String, String> launched = yarn.launchedContainers();
            assertThat(launched.values()).as("containers launched, by application").containsAll(queues.keySet());

            Map<String, Integer> kinds = new HashMap<>();
            Awaitility.await("every launched container booked once, started and finished")
                    .atMost(120, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
                        kinds.clear();
                        Map<String, LedgerFacts.Task> tasks = LedgerFacts.tasks(stack.postgres(), cluster, kinds);
                        launched.forEach((container, application) -> {
                            LedgerFacts.Task task = tasks.get(container);
                            assertThat(task).as(container + " booked").isNotNull();
                            assertThat(task.finish()).as(container + " finished").isNotNull();
                            assertThat(task.tenant()).as(container + " queue").isEqualTo(queues.get(application));
                        });
                        assertThat(kinds.get("TaskStarted")).as("one start per container").isEqualTo(tasks.size());
                        assertThat(kinds.get("TaskFinished")).as("one finish per container").isEqualTo(tasks.size());
                        // YARN's own usage, also of the application whose containers completed while no
                        // ResourceManager was active (each is finished when YARN finished it at its recovery) and of
                        // the one whose containers ran across the restart, as YARN counts an attempt it recovered
                        for (ApplicationId id : apps) {
                            assertApplication(id.toString(), queues.get(id.toString()),
                                    yarn.report(id).getApplicationResourceUsageReport(),
                                    stored.getOrDefault(id, new MiniYarn.Usage(0, 0)), restartedAt, tasks);
                        }
                    });
            List<String> nodes = LedgerFacts.nodes(stack.postgres(), cluster);
            System.out.println("[fairledger-integrations] restart: facts by kind " + kinds + ", node facts " + nodes
                    + ", launched " + launched.size());
            assertThat(nodes).as("each NodeManager registered with both ResourceManagers").hasSize(2 * MiniYarn.NODES);
            assertThat(nodes.stream().map(n -> n.substring(0, n.indexOf(' '))).distinct().count())
                    .as("the same NodeManagers").isEqualTo(MiniYarn.NODES);
            JsonNode fairness = new ObjectMapper().readTree(Http.expect(200,
                    Http.send("GET", stack.server().baseUrl() + "/api/v1/clusters/" + cluster + "/fairness", null)));
            assertThat(fairness.get("capacityVcores").asDouble()).as("capacity counted once")
                    .isEqualTo(MiniYarn.NODES * MiniYarn.NODE_VCORES);
            assertThat(fairness.get("capacityMemoryMb").asLong()).isEqualTo(MiniYarn.NODES * MiniYarn.NODE_MEMORY_MB);
        }
    }

    /** The containers without the first attempt's application master (container number 1). */
    private static Map<String, ContainerState> tasks(Map<String, ContainerState> containers) {
        Map<String, ContainerState> tasks = new HashMap<>(containers);
        tasks.keySet().removeIf(id -> id.endsWith("_01_000001"));
        return tasks;
    }

    private static long running(Map<String, ContainerState> containers) {
        return containers.values().stream().filter(s -> s == ContainerState.RUNNING).count();
    }

    private static long completed(Map<String, ContainerState> containers) {
        return containers.values().stream().filter(s -> s == ContainerState.COMPLETE).count();
    }

    static List<String> sorted(FSParentQueue parent, java.util.Comparator<Schedulable> order) {
        List<FSQueue> children = new ArrayList<>(parent.getChildQueues());
        children.sort(order);
        return children.stream().map(FSQueue::getName).toList();
    }

    /** The children of {@code parent} in the order of the server's grants, as a resource manager reads them. */
    private static List<String> grantOrder(String cluster, String parent) throws Exception {
        JsonNode grants = new ObjectMapper().readTree(Http.expect(200,
                Http.send("GET", stack.server().baseUrl() + "/api/v1/clusters/" + cluster + "/grants", null)));
        for (JsonNode level : grants.get("levels")) {
            if (level.get("parent").asText().equals(parent)) {
                List<String> order = new ArrayList<>();
                level.get("grants").forEach(g -> order.add(g.get("tenant").asText()));
                return order;
            }
        }
        return List.of();
    }

    /**
     * An application's containers in the books: all finished, in its queue, at least its tasks and its application
     * master, and YARN's own aggregates: for each container YARN adds {@code size * (finish - creation) / 1000} in
     * whole units, from the same creation and finish instants the bridge sends. Of an attempt recovered by a new
     * ResourceManager YARN reports the usage its state store held ({@code stored}) and the containers the new one
     * finished ({@code finishedFrom} on), not those the old one finished: see {@link MiniYarn#storedUsageOfRunningAttempts}.
     */
    private static void assertApplication(String application, String queue, ApplicationResourceUsageReport usage,
            MiniYarn.Usage stored, long finishedFrom, Map<String, LedgerFacts.Task> tasks) {
        List<LedgerFacts.Task> mine = new ArrayList<>();
        for (LedgerFacts.Task t : tasks.values()) {
            if (application.equals(t.application())) {
                mine.add(t);
            }
        }
        assertThat(mine).as(application + " containers: its tasks and application master")
                .hasSizeGreaterThanOrEqualTo(3);
        long vcoreSeconds = 0;
        long memorySeconds = 0;
        for (LedgerFacts.Task t : mine) {
            assertThat(t.finish()).as(t.id() + " finished").isNotNull();
            assertThat(t.tenant()).as(t.id() + " queue").isEqualTo(queue);
            if (t.finish() < finishedFrom) {
                continue;
            }
            long millis = t.finish() - t.start();
            vcoreSeconds += t.millicores() / 1000 * millis / 1000;
            memorySeconds += t.memoryMb() * millis / 1000;
        }
        assertThat(vcoreSeconds + stored.vcoreSeconds()).as(application + " vcoreSeconds; containers " + mine)
                .isEqualTo(usage.getVcoreSeconds());
        assertThat(memorySeconds + stored.memorySeconds())
                .as(application + " memorySeconds; containers " + mine).isEqualTo(usage.getMemorySeconds());
    }
}
