package io.fairledger.integrations.yarn;

import java.util.Collection;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSContext;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSQueue;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.Schedulable;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.SchedulingPolicy;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.FairSharePolicy;
import org.apache.hadoop.yarn.util.resource.ResourceCalculator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fairledger.integrations.common.GrantsAge;

/**
 * A Fair Scheduler policy for a parent queue that serves its child queues as fairledger's grants say: first the
 * children still below their granted targets, in the grants' order, then the others in the same order. Fair shares,
 * headroom and preemption stay YARN's fair share policy's. When the grants are unavailable (no client installed, the
 * server unreachable or its grants older than their validity) or do not name both queues compared, it orders as YARN's
 * fair share policy, and says so in the log: once when it starts, again at most once a minute while the grants are
 * older than their validity (with their age), and once when the grants are back. The grants' age is also a metric
 * ({@link GrantsMetrics}). Configured in the allocation file:
 * {@code <schedulingPolicy>io.fairledger.integrations.yarn.FairledgerGrantsPolicy</schedulingPolicy>}.
 */
public class FairledgerGrantsPolicy extends SchedulingPolicy {

    public static final String NAME = "fairledger";
    private static final Logger LOG = LoggerFactory.getLogger(FairledgerGrantsPolicy.class);

    private final FairSharePolicy fair = new FairSharePolicy();
    private final Comparator<Schedulable> comparator = this::compare;
    private volatile boolean fallingBack;
    private final LongAdder byGrants = new LongAdder();
    private final LongAdder byFairShare = new LongAdder();

    @Override
    public void initialize(FSContext context) {
        fair.initialize(context);
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public Comparator<Schedulable> getComparator() {
        return comparator;
    }

    /** True while ordering by YARN's fair share policy for want of grants. */
    public boolean fallingBack() {
        return fallingBack;
    }

    /** Comparisons of two queues made by the grants so far. */
    public long decisionsByGrants() {
        return byGrants.sum();
    }

    /** Comparisons of two queues made by YARN's fair share policy for want of grants so far. */
    public long decisionsByFairShare() {
        return byFairShare.sum();
    }

    int compare(Schedulable a, Schedulable b) {
        if (!(a instanceof FSQueue) || !(b instanceof FSQueue)) {
            return fair.getComparator().compare(a, b);
        }
        GrantsClient client = GrantsClient.installed();
        GrantsAge age = client == null ? null : client.age();
        Map<String, GrantsClient.Target> level = client == null ? null : client.level(parent(a.getName()));
        if (level == null) {
            byFairShare.increment();
            boolean stale = age != null && age.reportDue();
            if (!fallingBack || stale) {
                fallingBack = true;
                LOG.warn("fairledger grants unavailable for {} ({}): ordering by YARN's fair share policy",
                        parent(a.getName()), client == null
                                ? "no grants client installed"
                                : age.stale()
                                        ? "the grants are " + age.ageMillis() / 1000 + " s old, valid for "
                                                + age.validityMillis() / 1000 + " s"
                                        : "none received for this parent");
            }
            return fair.getComparator().compare(a, b);
        }
        byGrants.increment();
        if (fallingBack) {
            fallingBack = false;
            LOG.info("fairledger grants available for {} again: ordering by the grants", parent(a.getName()));
        }
        // one key for every pair, so that sorting is consistent: below target first, then the grants' order (a
        // queue the grants do not name comes last), then YARN's fair share order
        int byTarget = Boolean.compare(reached(a, level.get(a.getName())), reached(b, level.get(b.getName())));
        if (byTarget != 0) {
            return byTarget;
        }
        int byRank = Integer.compare(rank(level.get(a.getName())), rank(level.get(b.getName())));
        return byRank != 0 ? byRank : fair.getComparator().compare(a, b);
    }

    private static int rank(GrantsClient.Target target) {
        return target == null ? Integer.MAX_VALUE : target.rank();
    }

    private static boolean reached(Schedulable queue, GrantsClient.Target target) {
        return target != null && reached(queue.getResourceUsage(), target);
    }

    /** Whether a queue holds at least its granted target in its dominant resource. */
    static boolean reached(Resource usage, GrantsClient.Target target) {
        return usage.getVirtualCores() >= target.vcores() && target.vcores() > 0
                || usage.getMemorySize() >= target.memoryMb() && target.memoryMb() > 0
                || target.vcores() <= 0 && target.memoryMb() <= 0;
    }

    static String parent(String queue) {
        int dot = queue.lastIndexOf('.');
        return dot < 0 ? "" : queue.substring(0, dot);
    }

    @Override
    public ResourceCalculator getResourceCalculator() {
        return fair.getResourceCalculator();
    }

    @Override
    public void computeShares(Collection<? extends Schedulable> schedulables, Resource totalResources) {
        fair.computeShares(schedulables, totalResources);
    }

    @Override
    public void computeSteadyShares(Collection<? extends FSQueue> queues, Resource totalResources) {
        fair.computeSteadyShares(queues, totalResources);
    }

    @Override
    public boolean checkIfUsageOverFairShare(Resource usage, Resource fairShare) {
        return fair.checkIfUsageOverFairShare(usage, fairShare);
    }

    @Override
    public Resource getHeadroom(Resource queueFairShare, Resource queueUsage, Resource maxAvailable) {
        return fair.getHeadroom(queueFairShare, queueUsage, maxAvailable);
    }

    @Override
    public boolean isChildPolicyAllowed(SchedulingPolicy childPolicy) {
        return fair.isChildPolicyAllowed(childPolicy);
    }
}
