package io.fairledger.integrations.yarn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both of the bridge's schedulers ({@link FairledgerFairScheduler}, {@link FairledgerCapacityScheduler}) tell
 * fairledger, recorded the same way: every container handed to an application master (ACQUIRED, from its creation
 * time), every container completed (with YARN's own creation and finish times), every node that registers or leaves,
 * and each leaf queue's pending demand when it changes.
 * Events go to an {@link EventJournal} on the ResourceManager's disk in the scheduler's thread and are shipped to Kafka
 * by a {@link JournalShipper}.
 */
final class SchedulerRecorder {

    private static final Logger LOG = LoggerFactory.getLogger(SchedulerRecorder.class);

    private final BridgeConfig config;
    private final EventJournal journal;
    private volatile JournalShipper shipper;
    private final Map<String, Resource> lastDemand = new HashMap<>();
    private long lastDemandReport;

    /** Reads the settings, opens the journal and installs the grants client when a grants URL is configured. */
    SchedulerRecorder(Configuration conf) {
        config = BridgeConfig.from(conf);
        journal = new EventJournal(config.journalDir(), config.segmentBytes(), config.fsync());
        GrantsClient.installFrom(conf, config.cluster());
        LOG.info("fairledger bridge: cluster {}, journal {}, Kafka {}", config.cluster(), config.journalDir(),
                config.kafka().get("bootstrap.servers"));
    }

    BridgeConfig config() {
        return config;
    }

    EventJournal journal() {
        return journal;
    }

    JournalShipper shipper() {
        return shipper;
    }

    /** Starts a new shipper, which resumes from the journal's checkpoint. */
    synchronized void startShipper() {
        shipper = new JournalShipper(journal, config.kafka()).start();
    }

    /** Stops the shipper after its batch in flight; events still go to the journal. */
    synchronized void stopShipper() {
        shipper.close();
    }

    /** Stops the shipper, closes the journal and removes the grants client. */
    void close() {
        if (shipper != null) {
            shipper.close();
        }
        journal.close();
        GrantsClient.install(null);
    }

    /** The containers an allocation hands to an application master. */
    void allocated(SchedulerApplicationAttempt app, Allocation allocation,
            Function<ContainerId, RMContainer> containers) {
        long now = System.currentTimeMillis();
        for (Container container : allocation.getContainers()) {
            RMContainer rmContainer = containers.apply(container.getId());
            if (app != null && rmContainer != null) {
                journal.append(YarnEvents.CONTAINERS, config.cluster(),
                        YarnEvents.acquired(config.cluster(), describe(app, rmContainer), now));
            } else {
                LOG.warn("fairledger bridge: container {} handed out without a known application or container; its "
                        + "completion will carry its start", container.getId());
            }
        }
    }

    /** A container the scheduler completed; {@code app} is the application it belonged to before, or null. */
    void completed(SchedulerApplicationAttempt app, RMContainer rmContainer, ContainerStatus status) {
        if (app == null || rmContainer.getFinishTime() <= 0) {
            // the scheduler ignored it: the application is gone, so YARN accounts nothing either
            return;
        }
        journal.append(YarnEvents.CONTAINERS, config.cluster(),
                YarnEvents.finished(config.cluster(), describe(app, rmContainer), rmContainer.getState().name(),
                        status == null ? null : status.getExitStatus(), rmContainer.getFinishTime()));
    }

    /**
     * Runs {@code recovery}, the scheduler's own recovery of the containers a NodeManager reports when it (re)registers
     * with a ResourceManager that just started or became active. Running ones are recovered into the scheduler and
     * their completion comes later through {@link #completed}. Ones that completed while no ResourceManager was active
     * YARN finishes at this instant and charges, but the scheduler never sees them ({@link RecoveredFinishes}): they
     * are recorded here, finished when YARN finished them, so that the books equal YARN's own usage of the application.
     * Containers YARN does not recover (of an application or attempt it no longer has) it charges nothing, nor do the
     * books.
     */
    void recovering(RMContext context, Runnable recovery, Function<ContainerId, SchedulerApplicationAttempt> apps) {
        for (RMContainer container : RecoveredFinishes.during(context, recovery)) {
            SchedulerApplicationAttempt app = apps.apply(container.getContainerId());
            if (app == null || container.getFinishTime() <= 0) {
                continue;
            }
            LOG.info("fairledger bridge: container {} completed while no ResourceManager was active; recorded as "
                    + "finished at its recovery", container.getContainerId());
            journal.append(YarnEvents.CONTAINERS, config.cluster(), YarnEvents.finished(config.cluster(),
                    describe(app, container), container.getState().name(), container.getContainerExitStatus(),
                    container.getFinishTime()));
        }
    }

    /** A node that registered or left. */
    void handled(SchedulerEvent event) {
        long now = System.currentTimeMillis();
        if (event instanceof NodeAddedSchedulerEvent added) {
            RMNode node = added.getAddedRMNode();
            journal.append(YarnEvents.CAPACITY, config.cluster(), YarnEvents.node(config.cluster(), "NODE_ADDED",
                    node.getNodeID().toString(), node.getTotalCapability(), now));
        } else if (event instanceof NodeRemovedSchedulerEvent removed) {
            RMNode node = removed.getRemovedRMNode();
            journal.append(YarnEvents.CAPACITY, config.cluster(), YarnEvents.node(config.cluster(),
                    "NODE_REMOVED", node.getNodeID().toString(), node.getTotalCapability(), now));
        }
    }

    /**
     * Each leaf queue's pending resources, journalled when they changed since the last report, at most once per
     * {@code fairledger.demand.interval-ms}; the scheduler's thread calls it often, with the pending resources asked
     * for only when a report is due.
     */
    void demand(Supplier<Map<String, Resource>> pendingByQueue) {
        long now = System.currentTimeMillis();
        if (now - lastDemandReport < config.demandIntervalMillis()) {
            return;
        }
        lastDemandReport = now;
        pendingByQueue.get().forEach((queue, pending) -> {
            Resource last = lastDemand.put(queue, pending);
            if (last == null ? !Resources.none().equals(pending) : !last.equals(pending)) {
                journal.append(YarnEvents.DEMAND, config.cluster(),
                        YarnEvents.demand(config.cluster(), queue, pending, now));
            }
        });
    }

    Path journalDir() {
        return config.journalDir();
    }

    private static YarnEvents.Container describe(SchedulerApplicationAttempt app, RMContainer c) {
        ApplicationAttemptId attempt = c.getApplicationAttemptId();
        return new YarnEvents.Container(attempt.getApplicationId().toString(), attempt.toString(),
                c.getContainerId().toString(), app.getQueueName(), app.getUser(), c.getAllocatedResource(),
                c.getAllocatedNode() == null ? null : c.getAllocatedNode().toString(), c.getCreationTime());
    }
}
