package io.fairledger.integrations.yarn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
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
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.event.SchedulerEvent;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSLeafQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler;
import org.apache.hadoop.yarn.util.resource.Resources;

/**
 * YARN's Fair Scheduler, unchanged, that also tells fairledger what it does: every container it hands to an
 * application master (ACQUIRED, from its creation time) and every container it completes (with YARN's own creation and
 * finish times, the ones {@code vcoreSeconds} and {@code memorySeconds} are computed from), every node that registers
 * or leaves, and each leaf queue's pending demand when it changes. The scheduler is the one place that sees all of
 * these exactly once and with the ResourceManager's own numbers, so nothing is sampled or reconstructed.
 * <p>
 * Events are recorded by a {@link SchedulerRecorder} (a journal on the ResourceManager's disk, shipped to Kafka), as
 * {@link FairledgerCapacityScheduler}'s are: configured with {@code yarn.resourcemanager.scheduler.class} set to this
 * class (docs/integrations.md lists the keys).
 */
public class FairledgerFairScheduler extends FairScheduler {

    private SchedulerRecorder recorder;

    @Override
    public void serviceInit(Configuration conf) throws Exception {
        recorder = new SchedulerRecorder(conf);
        super.serviceInit(conf);
    }

    @Override
    public void serviceStart() throws Exception {
        recorder.startShipper();
        super.serviceStart();
    }

    @Override
    public void serviceStop() throws Exception {
        super.serviceStop();
        if (recorder != null) {
            recorder.close();
        }
    }

    /** The shipper in use (the last one started). */
    public JournalShipper shipper() {
        return recorder.shipper();
    }

    /** Stops the shipper after its batch in flight; events still go to the journal. */
    public void stopShipper() {
        recorder.stopShipper();
    }

    /** Starts a new shipper, which resumes from the journal's checkpoint. */
    public void startShipper() {
        recorder.startShipper();
    }

    public Path journalDir() {
        return recorder.journalDir();
    }

    @Override
    public Allocation allocate(ApplicationAttemptId attemptId, List<ResourceRequest> ask,
            List<SchedulingRequest> schedulingRequests, List<ContainerId> release, List<String> blacklistAdditions,
            List<String> blacklistRemovals, ContainerUpdates updateRequests) {
        Allocation allocation = super.allocate(attemptId, ask, schedulingRequests, release, blacklistAdditions,
                blacklistRemovals, updateRequests);
        recorder.allocated(getSchedulerApp(attemptId), allocation, this::getRMContainer);
        return allocation;
    }

    @Override
    protected void completedContainerInternal(RMContainer rmContainer, ContainerStatus status,
            RMContainerEventType event) {
        FSAppAttempt app = getSchedulerApp(rmContainer.getApplicationAttemptId());
        super.completedContainerInternal(rmContainer, status, event);
        recorder.completed(app, rmContainer, status);
    }

    @Override
    public void recoverContainersOnNode(List<NMContainerStatus> containerReports, RMNode nm) {
        recorder.recovering(getRMContext(), () -> super.recoverContainersOnNode(containerReports, nm),
                this::getCurrentAttemptForContainer);
    }

    @Override
    public void handle(SchedulerEvent event) {
        super.handle(event);
        recorder.handled(event);
    }

    /** After the Fair Scheduler's periodic update: each leaf queue's pending demand, when it changed. */
    @Override
    public void update() {
        super.update();
        recorder.demand(() -> {
            Map<String, Resource> pending = new HashMap<>();
            for (FSLeafQueue queue : getQueueManager().getLeafQueues()) {
                pending.put(queue.getName(), Resources.subtractNonNegative(Resources.clone(queue.getDemand()),
                        queue.getResourceUsage()));
            }
            return pending;
        });
    }
}
