package io.fairledger.integrations.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.YarnClientApplication;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;

import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerFairScheduler;

/**
 * A real YARN in this JVM: a MiniYARNCluster (one ResourceManager, two NodeManagers running real processes) whose
 * scheduler is {@link FairledgerFairScheduler}, with the queues of an allocation file, and a client that submits
 * {@link SleepApplication}s.
 */
final class MiniYarn implements AutoCloseable {

    static final int NODES = 2;
    static final int NODE_MEMORY_MB = 4096;
    static final int NODE_VCORES = 4;

    private final MiniYARNCluster cluster;
    private final YarnClient client;

    /** @param extra more settings (the bridge's or the policy's); {@code allocations} the allocation file's XML */
    MiniYarn(String name, Map<String, String> extra, String allocations, Path dir) {
        try {
            Path allocationFile = dir.resolve("fair-scheduler.xml");
            Files.writeString(allocationFile, allocations);
            YarnConfiguration conf = new YarnConfiguration();
            conf.set(YarnConfiguration.RM_SCHEDULER, FairledgerFairScheduler.class.getName());
            conf.set("yarn.scheduler.fair.allocation.file", allocationFile.toString());
            conf.setBoolean("yarn.scheduler.fair.allow-undeclared-pools", false);
            conf.setBoolean("yarn.scheduler.fair.user-as-default-queue", false);
            conf.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 128);
            conf.setInt(YarnConfiguration.NM_PMEM_MB, NODE_MEMORY_MB);
            conf.setInt(YarnConfiguration.NM_VCORES, NODE_VCORES);
            conf.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
            conf.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, false);
            conf.set(BridgeConfig.JOURNAL_DIR, dir.resolve("journal").toString());
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

    Configuration config() {
        return cluster.getConfig();
    }

    /** Submits a {@link SleepApplication} to a queue: {@code tasks} containers of the size, each for the seconds. */
    ApplicationId submit(String queue, int tasks, int memoryMb, int vcores, int seconds) throws Exception {
        YarnClientApplication app = client.createApplication();
        ApplicationSubmissionContext context = app.getApplicationSubmissionContext();
        context.setApplicationName("sleep-" + queue);
        context.setQueue(queue);
        context.setResource(Resource.newInstance(384, 1));
        context.setMaxAppAttempts(1);
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(System.getProperty("hadoop.opens", ""));
        command.add("-Xmx200m -XX:TieredStopAtLevel=1 -cp " + System.getProperty("java.class.path"));
        command.add(SleepApplication.class.getName());
        command.add(tasks + " " + memoryMb + " " + vcores + " " + seconds);
        command.add("1><LOG_DIR>/stdout 2><LOG_DIR>/stderr");
        context.setAMContainerSpec(ContainerLaunchContext.newInstance(Map.of(),
                Map.of("RM_SCHEDULER_ADDRESS", cluster.getConfig().get(YarnConfiguration.RM_SCHEDULER_ADDRESS)),
                List.of(String.join(" ", command)), null, null, null));
        return client.submitApplication(context);
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

    @Override
    public void close() {
        client.stop();
        cluster.stop();
    }
}
