package io.fairledger.integrations.yarn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.ResourceRequest;
import org.apache.hadoop.yarn.api.records.SchedulingRequest;
import org.apache.hadoop.yarn.server.api.protocolrecords.NMContainerStatus;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainerEventType;
import org.apache.hadoop.yarn.server.resourcemanager.rmnode.RMNode;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.Allocation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.ContainerUpdates;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeAddedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.NodeRemovedSchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's Fair Scheduler, unchanged, that also tells fairledger what it does: every container it hands to an
 * application master (ACQUIRED, from its creation time) and every container it completes (with YARN's own creation and
 * finish times, the ones {@code vcoreSeconds} and {@code memorySeconds} are computed from), every node that registers
 * or leaves, and each leaf queue's pending demand when it changes. The scheduler is the one place that sees all of
 * these exactly once and with the ResourceManager's own numbers, so nothing is sampled or reconstructed.
 * <p>
 * Events go to an {@link EventJournal} on the ResourceManager's disk in the scheduler's thread and are shipped to
 * Kafka by a {@link JournalShipper}: configured with {@code yarn.resourcemanager.scheduler.class} set to this class
 * (docs/integrations.md lists the keys).
 */
public class FairledgerFairScheduler extends FairScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(FairledgerFairScheduler.class);

    private BridgeConfig config;
    private EventJournal journal;
    private volatile JournalShipper shipper;
    private final Map<String, Resource> lastDemand = new HashMap<>();
    private long lastDemandReport;

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        config = BridgeConfig.from(conf);
        journal = new EventJournal(config.journalDir(), config.segmentBytes(), config.fsync());
        GrantsClient.installFrom(conf, config.cluster());
        super.serviceInit(conf);
        LOG.info("fairledger bridge: cluster {}, journal {}, Kafka {}", config.cluster(), config.journalDir(),
                config.kafka().get("bootstrap.servers"));
    }

    @Override
    public void serviceStart() throws Exception {
        shipper = new JournalShipper(journal, config.kafka()).start();
        super.serviceStart();
    }

    @Override
    public void serviceStop() throws Exception {
        super.serviceStop();
        if (shipper != null) {
            shipper.close();
        }
        if (journal != null) {
            journal.close();
        }
        GrantsClient.install(null);
    }

    /** The shipper in use (the last one started). */
    public JournalShipper shipper() {
        return shipper;
    }

    /** Stops the shipper after its batch in flight; events still go to the journal. */
    public synchronized void stopShipper() {
        shipper.close();
    }

    /** Starts a new shipper, which resumes from the journal's checkpoint. */
    public synchronized void startShipper() {
        shipper = new JournalShipper(journal, config.kafka()).start();
    }

    public Path journalDir() {
        return config.journalDir();
    }

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updateRequests) {
        Allocation allocation = super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
                blacklistRemovals, updateRequests);
        FSAppAttempt app = getSchedulerApp(attemptId);
        long now = System.currentTimeMillis();
        for (Container container : allocation.getContainers()) {
            RMContainer rmContainer = getRMContainer(container.getId());
            if (app != null && rmContainer != null) {
                journal.append(YarnEvents.CONTAINERS, config.cluster(),
                        YarnEvents.acquired(config.cluster(), describe(app, rmContainer), now));
            } else {
                LOG.warn("fairledger bridge: container {} handed out without a known application or container; its "
                        + "completion will carry its start", container.getId());
            }
        }
        return allocation;
    }

    @Override
    protected void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
            RMContainerEventType event) {
        FSAppAttempt app = getSchedulerApp(rmContainer.getApplicationAttemptId());
        super.completedContainerInternal(rmContainer, status, event);
        if (app == null || rmContainer.getFinishTime() <= 0) {
            // the Fair Scheduler ignored it: the application is gone, so YARN accounts nothing either
            return;
        }
        journal.append(YarnEvents.CONTAINERS, config.cluster(),
                YarnEvents.finished(config.cluster(), describe(app, rmContainer), rmContainer.getState().name(),
                        status == null ? null : status.getExitStatus(), rmContainer.getFinishTime()));
    }

    /**
     * A NodeManager (re)registering with a ResourceManager that just started or became active reports its containers.
     * Running ones are recovered into the scheduler and their completion comes later through
     * {@link #completedContainerInternal}. Ones that completed while no ResourceManager was active are only marked
     * completed by YARN (its container record is finished at this instant, and the scheduler never sees them), so
     * without this their start would stay open in the books forever: they are recorded here, finished now, as YARN
     * charges them.
     */
    @Override
    public void recoverContainersOnNode(List<NMContainerStatus> containerReports, RMNode nm) {
        super.recoverContainersOnNode(containerReports, nm);
        if (containerReports == null) {
            return;
        }
        long now = System.currentTimeMillis();
        for (NMContainerStatus report : containerReports) {
            if (report.getContainerState() != ContainerState.COMPLETE) {
                continue;
            }
            ApplicationAttemptId attempt = report.getContainerId().getApplicationAttemptId();
            FSAppAttempt app = getSchedulerApp(attempt);
            if (app == null) {
                // YARN does not recover a container of an application it no longer has, and accounts nothing
                continue;
            }
            YarnEvents.Container container = new YarnEvents.Container(attempt.getApplicationId().toString(),
                    attempt.toString(), report.getContainerId().toString(), app.getQueueName(), app.getUser(),
                    report.getAllocatedResource(), nm.getNodeID().toString(), report.getCreationTime());
            LOG.info("fairledger bridge: container {} completed while no ResourceManager was active; recorded as "
                    + "finished at its recovery", report.getContainerId());
            journal.append(YarnEvents.CONTAINERS, config.cluster(),
                    YarnEvents.finished(config.cluster(), container, "COMPLETED", report.getContainerExitStatus(),
                            now));
        }
    }

    @Override
    public void handle(SchedulerEvent event) {
        super.handle(event);
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

    /** After the Fair Scheduler's periodic update: each leaf queue's pending demand, when it changed. */
    @Override
    public void update() {
        super.update();
        long now = System.currentTimeMillis();
        if (now - lastDemandReport < config.demandIntervalMillis()) {
            return;
        }
        lastDemandReport = now;
        for (FSLeafQueue queue : getQueueManager().getLeafQueues()) {
            Resource pending = Resources.subtractNonNegative(Resources.clone(queue.getDemand()),
                    queue.getResourceUsage());
            Resource last = lastDemand.put(queue.getName(), pending);
            if (last == null ? !Resources.none().equals(pending) : !last.equals(pending)) {
                journal.append(YarnEvents.DEMAND, config.cluster(),
                        YarnEvents.demand(config.cluster(), queue.getName(), pending, now));
            }
        }
    }

    private static YarnEvents.Container describe(FSAppAttempt app, RMContainer c) {
        ApplicationAttemptId attempt = c.getApplicationAttemptId();
        return new YarnEvents.Container(attempt.getApplicationId().toString(), attempt.toString(),
                c.getContainerId().toString(), app.getQueueName(), app.getUser(), c.getAllocatedResource(),
                c.getAllocatedNode() == null ? null : c.getAllocatedNode().toString(), c.getCreationTime());
    }
}
