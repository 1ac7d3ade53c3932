package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.containermanager.container.Container;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationAttemptStateData;
import org.apache.hadoop.yarn.server.resourcemanager.recovery.records.ApplicationStateData;

import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerCapacityScheduler;
import io.fairledger.integrations.yarn.FairledgerFairScheduler;
import io.fairledger.testsupport.Processes;

/**
 * A real YARN in this JVM: a MiniYARNCluster (one ResourceManager, two NodeManagers running real processes) whose
 * scheduler is {@link FairledgerFairScheduler}, with the queues of an allocation file (or
 * {@link FairledgerCapacityScheduler}), and a client that submits {@link SleepApplication}s.
 */
final class MiniYarn implements AutoCloseable {

    static final int NODES = 2;
    static final int NODE_MEMORY_MB = 4096;
    static final int NODE_VCORES = 4;

    private final MiniYARNCluster cluster;
    private final YarnClient client;

    /** @param extra more settings (the bridge's or the policy's); {@code allocations} the allocation file's XML */
    MiniYarn(String name, Map<String, String> extra, String allocations, Path dir) {
        this(name, extra, allocations, dir, false);
    }

    /**
     * @param restartable whether the ResourceManager will be stopped and started again: then it listens on fixed
     *            (free) ports, and the NodeManagers reach it over RPC, as in a real cluster. By default
     *            MiniYARNCluster's NodeManagers call the first ResourceManager's objects directly and would never
     *            see a new one.
     */
    MiniYarn(String name, Map<String, String> extra, String allocations, Path dir, boolean restartable) {
        this(name, extra, FairledgerFairScheduler.class, allocations, dir, restartable);
    }

    /**
     * A MiniYARNCluster whose scheduler is {@link FairledgerCapacityScheduler}, with the queues of the
     * {@code capacity-scheduler.xml} on the test classpath.
     */
    static MiniYarn capacity(String name, Map<String, String> extra, Path dir) {
        return new MiniYarn(name, extra, FairledgerCapacityScheduler.class, null, dir, false);
    }

    private MiniYarn(String name, Map<String, String> extra, Class<?> scheduler, String allocations, Path dir,
            boolean restartable) {
        try {
            YarnConfiguration conf = new YarnConfiguration();
            conf.set(YarnConfiguration.RM_SCHEDULER, scheduler.getName());
            if (allocations != null) {
                Path allocationFile = dir.resolve("fair-scheduler.xml");
                Files.writeString(allocationFile, allocations);
                conf.set("yarn.scheduler.fair.allocation.file", allocationFile.toString());
                conf.setBoolean("yarn.scheduler.fair.allow-undeclared-pools", false);
                conf.setBoolean("yarn.scheduler.fair.user-as-default-queue", false);
            }
            conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
            conf.setInt(YarnConfiguration.NM_PMEM_MB, NODE_MEMORY_MB);
            conf.setInt(YarnConfiguration.NM_VCORES, NODE_VCORES);
            conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
            conf.set(BridgeConfig.JOURNAL_DIR, dir.resolve("journal").toString());
            // NodeManagers and clients retry a ResourceManager that is down every half second (YARN's default: 30 s)
            conf.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, 500);
            if (restartable) {
                String host = MiniYARNCluster.getHostname();
                for (String key : List.of(YarnConfiguration.RM_ADDRESS, YarnConfiguration.RM_SCHEDULER_ADDRESS,
                        YarnConfiguration.RM_RESOURCE_TRACKER_ADDRESS, YarnConfiguration.RM_ADMIN_ADDRESS,
                        YarnConfiguration.RM_WEBAPP_ADDRESS)) {
                    conf.set(key, host + ":" + Processes.freePort());
                }
                for (String key : List.of(YarnConfiguration.NM_ADDRESS, YarnConfiguration.NM_LOCALIZER_ADDRESS,
                        YarnConfiguration.NM_WEBAPP_ADDRESS, YarnConfiguration.NM_COLLECTOR_SERVICE_ADDRESS)) {
                    conf.set(key, host + ":0");
                }
                conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
                conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
            }
            extra.forEach(conf::set);
            cluster = new MiniYARNCluster(name, NODES, 1, 1);
            cluster.init(conf);
            cluster.start();
            client = YarnClient.createYarnClient();
            client.init(cluster.getConfig());
            client.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    FairledgerFairScheduler scheduler() {
        return (FairledgerFairScheduler) cluster.getResourceManager().getResourceScheduler();
    }

    FairledgerCapacityScheduler capacityScheduler() {
        return (FairledgerCapacityScheduler) cluster.getResourceManager().getResourceScheduler();
    }

    Configuration config() {
        return cluster.getConfig();
    }

    /** Submits a {@link SleepApplication} to a queue: {@code tasks} containers of the size, each for the seconds. */
    ApplicationId submit(String queue, int tasks, int memoryMb, int vcores, int seconds) throws Exception {
        return submit(queue, tasks, memoryMb, vcores, String.valueOf(seconds));
    }

    /**
     * Submits a {@link SleepApplication} whose tasks run until {@code release} exists: the test decides when they
     * end, rather than guessing how long they must sleep.
     */
    ApplicationId submitUntil(String queue, int tasks, int memoryMb, int vcores, Path release) throws Exception {
        return submit(queue, tasks, memoryMb, vcores, "0 " + release.toAbsolutePath());
    }

    private ApplicationId submit(String queue, int tasks, int memoryMb, int vcores, String duration)
            throws Exception {
        YarnClientApplication app = client.createApplication();
        ApplicationSubmissionContext context = app.getApplicationSubmissionContext();
        context.setApplicationName("sleep-" + queue);
        context.setQueue(queue);
        context.setResource(Resource.newInstance(384, 1));
        // a second attempt when YARN itself fails the first (an application master that lost its ResourceManager for
        // longer than it waits, across YarnBridgeIT's restart, seen once in six runs): the tests judge fairledger's
        // books of whatever YARN ran, and every attempt's containers are booked like any other
        context.setMaxAppAttempts(2);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(System.getProperty("hadoop.opens", ""));
        command.add("-Xmx200m -XX:TieredStopAtLevel=1 -cp " + System.getProperty("java.class.path"));
        command.add(SleepApplication.class.getName());
        command.add(tasks + " " + memoryMb + " " + vcores + " " + duration);
        command.add("1><LOG_DIR>/stdout 2><LOG_DIR>/stderr");
        context.setAMContainerSpec(ContainerLaunchContext.newInstance(Map.of(),
                Map.of("RM_SCHEDULER_ADDRESS", cluster.getConfig().get(YarnConfiguration.RM_SCHEDULER_ADDRESS)),
                List.of(String.join(" ", command)), null, null, null));
        return client.submitApplication(context);
    }

    /** Stops the ResourceManager (its scheduler, the bridge's shipper and journal with it); NodeManagers keep running. */
    void stopResourceManager() {
        cluster.stopResourceManager(0);
    }

    /**
     * Starts a new ResourceManager on the same addresses, configuration and journal directory; with recovery enabled
     * it recovers the applications from its state store and the containers from the NodeManagers.
     */
    void startResourceManager() throws InterruptedException {
        cluster.restartResourceManager(0);
    }

    /** Resource usage in YARN's whole units, as its reports and state store hold it. */
    record Usage(long vcoreSeconds, long memorySeconds) {
    }

    /**
     * The usage the state store holds for an application's attempts that have not finished (its last attempt while it
     * runs), read while no ResourceManager is active. The ResourceManager stores an attempt when its application
     * master's container is allocated, with that container's usage up to that instant, and not again until the
     * attempt ends; a ResourceManager that recovers the attempt starts its count from that stored usage. So YARN's
     * report of it counts the application master's first moments twice (the recovered container is charged again
     * from its creation) and leaves out every container the old ResourceManager finished after that instant.
     */
    Usage storedUsageOfRunningAttempts(ApplicationId application) throws Exception {
        FileSystemRMStateStore store = new FileSystemRMStateStore();
        store.init(cluster.getConfig());
        store.start();
        try {
            ApplicationStateData app = store.loadState().getApplicationState().get(application);
            long vcoreSeconds = 0;
            long memorySeconds = 0;
            for (ApplicationAttemptStateData attempt : app.attempts.values()) {
                if (attempt.getState() == null) {
                    vcoreSeconds += attempt.getVcoreSeconds();
                    memorySeconds += attempt.getMemorySeconds();
                }
            }
            return new Usage(vcoreSeconds, memorySeconds);
        } finally {
            store.stop();
        }
    }

    /** The containers of an application as the NodeManagers have them now: container id to YARN's container state. */
    Map<String, ContainerState> nodeContainers(ApplicationId application) {
        Map<String, ContainerState> states = new TreeMap<>();
        for (int i = 0; i < NODES; i++) {
            for (Container c : cluster.getNodeManager(i).getNMContext().getContainers().values()) {
                if (c.getContainerId().getApplicationAttemptId().getApplicationId().equals(application)) {
                    states.put(c.getContainerId().toString(), c.cloneAndGetContainerStatus().getState());
                }
            }
        }
        return states;
    }

    /**
     * Every container the NodeManagers launched, as container id to application id: each launched container gets its
     * own log directory ({@code <log dir>/<application>/<container>}), whichever ResourceManager it was allocated by.
     */
    Map<String, String> launchedContainers() throws IOException {
        Map<String, String> launched = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(cluster.getTestWorkDir().toPath())) {
            paths.filter(Files::isDirectory)
                    .filter(p -> p.getFileName().toString().startsWith("container_")
                            && p.getParent().getFileName().toString().startsWith("application_")
                            && p.getParent().getParent().getFileName().toString().contains("-logDir-nm-"))
                    .forEach(p -> launched.put(p.getFileName().toString(), p.getParent().getFileName().toString()));
        }
        return launched;
    }

    void kill(ApplicationId id) throws Exception {
        client.killApplication(id);
    }

    ApplicationReport report(ApplicationId id) throws Exception {
        return client.getApplicationReport(id);
    }

    boolean finished(ApplicationId id) throws Exception {
        YarnApplicationState state = report(id).getYarnApplicationState();
        return state == YarnApplicationState.FINISHED || state == YarnApplicationState.FAILED
                || state == YarnApplicationState.KILLED;
    }

    /**
     * Stops the client and the cluster, waiting at most two minutes: a NodeManager that cannot reach a stopped
     * ResourceManager retries it, and a test that failed must still end (the cluster's threads are left to the JVM).
     */
    @Override
    public void close() {
        client.stop();
        Thread stopping = new Thread(cluster::stop, "mini-yarn-stop");
        stopping.setDaemon(true);
        stopping.start();
        try {
            stopping.join(120_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopping.isAlive()) {
            System.out.println("[fairledger-integrations] MiniYARNCluster still stopping after 2 minutes; left behind");
        }
    }
}
