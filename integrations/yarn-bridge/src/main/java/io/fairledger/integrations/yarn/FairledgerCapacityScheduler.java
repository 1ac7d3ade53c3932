package io.fairledger.integrations.yarn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptId;
import org.apache.hadoop.yarn.api.records.ContainerId;
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
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.MutableConfigurationProvider;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.SchedulerApplicationAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.CapacityScheduler;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.capacity.conf.YarnConfigurationStore.LogMutation;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.util.resource.Resources;
import org.apache.hadoop.yarn.webapp.dao.QueueConfigInfo;
import org.apache.hadoop.yarn.webapp.dao.SchedConfUpdateInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's Capacity Scheduler, unchanged, that tells fairledger what it does ({@link SchedulerRecorder}: containers
 * handed out and completed, nodes registered and gone, each leaf queue's pending demand) and, when
 * {@code fairledger.grants.url} is set, follows the grants by changing its own queue configuration: every poll
 * interval the grants' weights and priorities ({@link CapacityGrantWeights}) that differ from the configuration in
 * force are applied as one mutation of the scheduler's mutable configuration, then the queues are refreshed, as
 * YARN's {@code scheduler-conf} REST API does.
 * That needs a mutable configuration store ({@code yarn.scheduler.configuration.store.class}: {@code memory},
 * {@code fs}, {@code leveldb} or {@code zk}) and queues in weight mode. Configured with
 * {@code yarn.resourcemanager.scheduler.class} set to this class (docs/integrations.md).
 */
public class FairledgerCapacityScheduler extends CapacityScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(FairledgerCapacityScheduler.class);

    private SchedulerRecorder recorder;
    private long pollMillis;
    private ScheduledExecutorService weights;
    private Configuration baseline;
    private final AtomicLong mutations = new AtomicLong();
    private volatile boolean byGrants;

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        recorder = new SchedulerRecorder(conf);
        pollMillis = conf.getLong(GrantsClient.POLL_MS, 10_000);
        super.serviceInit(conf);
    }

    @Override
    public void serviceStart() throws Exception {
        recorder.startShipper();
        super.serviceStart();
        if (GrantsClient.installed() == null) {
            return;
        }
        MutableConfigurationProvider provider = getMutableConfProvider();
        if (provider == null) {
            LOG.warn("fairledger grants: the Capacity Scheduler's configuration is not mutable, so the grants are not "
                    + "applied: set yarn.scheduler.configuration.store.class (docs/integrations.md)");
            return;
        }
        baseline = provider.getConfiguration();
        weights = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fairledger-capacity-weights");
            t.setDaemon(true);
            return t;
        });
        weights.scheduleWithFixedDelay(this::applyGrants, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void serviceStop() throws Exception {
        if (weights != null) {
            weights.shutdownNow();
        }
        super.serviceStop();
        if (recorder != null) {
            recorder.close();
        }
    }

    /** The shipper in use. */
    public JournalShipper shipper() {
        return recorder.shipper();
    }

    /** Configuration mutations applied for the grants (or back to the baseline) so far. */
    public long grantMutations() {
        return mutations.get();
    }

    /** True when the last mutation applied grants, false when it restored the operator's settings (or none yet). */
    public boolean followingGrants() {
        return byGrants;
    }

    /** Applies the settings the grants (or, without them, the baseline) want and the configuration does not have. */
    void applyGrants() {
        GrantsClient client = GrantsClient.installed();
        MutableConfigurationProvider provider = getMutableConfProvider();
        if (client == null || provider == null) {
            return;
        }
        try {
            Configuration current = provider.getConfiguration();
            Map<String, List<String>> tree = new LinkedHashMap<>();
            parents(getRootQueue(), tree);
            Map<String, Map<String, String>> changes = CapacityGrantWeights.changes(tree, client::level,
                    current::get, baseline::get);
            if (changes.isEmpty()) {
                return;
            }
            boolean grants = tree.keySet().stream().anyMatch(p -> client.level(p) != null);
            SchedConfUpdateInfo update = new SchedConfUpdateInfo();
            ArrayList<QueueConfigInfo> queues = new ArrayList<>();
            changes.forEach((queue, params) -> queues.add(new QueueConfigInfo(queue, new HashMap<>(params))));
            update.setUpdateQueueInfo(queues);
            LogMutation mutation = provider.logAndApplyMutation(UserGroupInformation.getCurrentUser(), update);
            try {
                rmContext.getRMAdminService().refreshQueues();
            } catch (Exception e) {
                provider.confirmPendingMutation(mutation, false);
                throw e;
            }
            provider.confirmPendingMutation(mutation, true);
            mutations.incrementAndGet();
            byGrants = grants;
            LOG.info("fairledger grants: queues set {} ({})", changes,
                    grants ? "from the grants" : "back to the configured settings, for want of grants");
        } catch (Exception e) {
            LOG.warn("fairledger grants: cannot apply them to the Capacity Scheduler's queues: {}", e.toString());
        }
    }

    private static void parents(CSQueue queue, Map<String, List<String>> tree) {
        List<CSQueue> children = queue.getChildQueues();
        if (children == null || children.isEmpty()) {
            return;
        }
        tree.put(queue.getQueuePath(), children.stream().map(CSQueue::getQueuePath).toList());
        children.forEach(c -> parents(c, tree));
    }

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updateRequests) {
        Allocation allocation = super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
                blacklistRemovals, updateRequests);
        recorder.allocated(getApplicationAttempt(attemptId), allocation, this::getRMContainer);
        return allocation;
    }

    @Override
    protected void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
            RMContainerEventType event) {
        SchedulerApplicationAttempt app = getApplicationAttempt(rmContainer.getApplicationAttemptId());
        super.completedContainerInternal(rmContainer, status, event);
        recorder.completed(app, rmContainer, status);
    }

    @Override
    public void recoverContainersOnNode(List<NMContainerStatus> containerReports, RMNode nm) {
        recorder.recovering(getRMContext(), () -> super.recoverContainersOnNode(containerReports, nm),
                this::getCurrentAttemptForContainer);
    }

    /** Also, on the scheduler's events (node heartbeats among them): each leaf queue's pending demand. */
    @Override
    public void handle(SchedulerEvent event) {
        super.handle(event);
        recorder.handled(event);
        recorder.demand(() -> {
            Map<String, Resource> pending = new HashMap<>();
            leaves(getRootQueue(), pending);
            return pending;
        });
    }

    private static void leaves(CSQueue queue, Map<String, Resource> pending) {
        List<CSQueue> children = queue.getChildQueues();
        if (children == null || children.isEmpty()) {
            pending.put(queue.getQueuePath(), Resources.clone(queue.getQueueResourceUsage().getPending()));
        } else {
            children.forEach(c -> leaves(c, pending));
        }
    }
}
