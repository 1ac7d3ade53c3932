package io.fairledger.core.ledger;

import java.math.BigInteger;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * Everything a {@link ClusterLedger} holds beyond its configuration, as immutable values: what
 * {@link ClusterLedger#snapshot} returns, {@link ClusterLedger#restore} builds a ledger from and {@link LedgerCodec}
 * writes into a checkpoint. Restoring a state and taking its snapshot again gives an equal state, and a restored
 * ledger goes on exactly as the one the state was taken from.
 *
 * <p>
 * Tree nodes are listed in creation order (root first, parents before children) and referred to by their position
 * in {@link #nodes}; tasks by their position in {@link Tasks#table}. Collections whose order can change a result keep
 * it (the quantum calendar, the applications awaiting a refresh); the ones that are only looked up are sorted by key,
 * so equal ledgers give equal states.
 *
 * <p>
 * Why: the ledger's classes are mutable and package-private and keep references between each other; a checkpoint
 * needs plain values. A new piece of ledger state is a component of one of these records: the compiler then asks
 * for it where the records are built (from a ledger by {@link LedgerSnapshot}, from bytes by {@link LedgerCodec}),
 * and the round trips of the tests fail until it is also restored and written.
 *
 * @param clock
 *            the instant of the last applied event ({@link ClusterLedger#clock})
 * @param capacity
 *            the current capacity
 * @param outcomes
 *            how many events ended with each {@link Outcome}, by ordinal
 * @param nodes
 *            the tenant tree, in creation order
 * @param quanta
 *            the adaptive time quanta of the applications
 * @param tasks
 *            the running tasks and the quantum calendar
 */
public record LedgerState(long clock, ResourceVector capacity, List<Long> outcomes, List<Node> nodes, Quanta quanta,
        Tasks tasks) {

    public LedgerState {
        outcomes = List.copyOf(outcomes);
        nodes = List.copyOf(nodes);
        if (outcomes.size() != Outcome.values().length) {
            throw new IllegalArgumentException("the state counts " + outcomes.size() + " event outcomes, this ledger "
                    + "knows " + Outcome.values().length);
        }
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("the state holds no tree: its root is missing");
        }
    }

    /**
     * One node of the tenant tree ({@code TenantNode}). Holdings and pending demand are subtree totals.
     *
     * @param parent
     *            the parent's position in {@link LedgerState#nodes}, -1 for the root
     * @param discountOverride
     *            the configured discount rate, NaN to inherit the cluster's
     * @param share
     *            the absolute share {@code S}
     * @param eta
     *            the discount rate in force
     * @param ownPending
     *            the node's own pending demand, the sum of {@code pendingByApplication}
     * @param pendingByApplication
     *            the latest non-zero pending demand of each application, sorted by application id
     */
    public record Node(TenantPath path, int parent, double weight, double discountOverride, String pricePlan,
            double share, double eta, ResourceVector held, ResourceVector ownPending, ResourceVector pending,
            Map<String, ResourceVector> pendingByApplication, int runningTasks, Rates rates, Integrals integrals,
            Pool pool, QuantumSums quantum) {

        public Node {
            pendingByApplication = Collections.unmodifiableSortedMap(new TreeMap<>(pendingByApplication));
        }

        /** This node with another weight and configured discount rate (NaN: the cluster's). */
        public Node withWeight(double newWeight, double newDiscountOverride) {
            return new Node(path, parent, newWeight, newDiscountOverride, pricePlan, share, eta, held, ownPending,
                    pending, pendingByApplication, runningTasks, rates, integrals, pool, quantum);
        }
    }

    /**
     * A node's current rates, shares of capacity ({@code NodeRates}, LTRF eq. 7, Tang et al., 2014): used {@code g},
     * counted {@code g'}, demanded {@code d}, entitled {@code e}, borrowed {@code b} and unused {@code u}.
     */
    public record Rates(double g, double counted, double d, double e, double b, double u) {
    }

    /**
     * A node's time integrals up to {@code last} ({@code Accumulators}): the open period's, the memory ones and the
     * early-bird top-up {@code phi}, the round and arrival.
     *
     * @param resourceMs
     *            exact units x ms held per resource type in the open period
     * @param uncountedResourceMs
     *            units x ms held while not counted, per resource type
     * @param kLendSeen
     *            the sibling group's {@code K_lend} the lent integral was last advanced to
     * @param kBorrowSeen
     *            the same for {@code K_borrow}
     */
    public record Integrals(long last, double actual, double counted, double entitled, double demand,
            double borrowedRaw, double lent, double borrowedFromSiblings, double kLendSeen, double kBorrowSeen,
            double memActual, double memCounted, double memEntitled, double phi, List<BigInteger> resourceMs,
            List<Double> uncountedResourceMs, long round, long roundEnd, boolean arrived, long arrivalAt) {

        public Integrals {
            resourceMs = List.copyOf(resourceMs);
            uncountedResourceMs = List.copyOf(uncountedResourceMs);
            if (resourceMs.size() != ResourceVector.TYPES || uncountedResourceMs.size() != ResourceVector.TYPES) {
                throw new IllegalArgumentException("the state integrates " + resourceMs.size() + " resource types, "
                        + "this ledger " + ResourceVector.TYPES);
            }
        }
    }

    /**
     * The lending pool among a node's children ({@code SiblingGroup}): the sums {@code B, U}, the global accumulators
     * {@code K_lend, K_borrow} up to {@code last}, and how many updates ago {@code B, U} were summed afresh.
     */
    public record Pool(double borrowedSum, double unusedSum, long last, double kLend, double kBorrow,
            int updatesSinceRecompute) {
    }

    /**
     * A node's time-quantum sums (docs/domain.md section 6): over its subtree's young tasks, and over the quanta of
     * its applications and children, with its own quantum and whether a refresh has it marked.
     */
    public record QuantumSums(int youngCount, double youngSize, double youngSizeTimesEnd, double quantumMs,
            double quantumSum, int quantumMembers, boolean quantumDirty) {
    }

    /**
     * The adaptive quanta ({@code TimeQuanta}, {@code AdaptiveQuantum}).
     *
     * @param nextRefresh
     *            the instant of the next refresh
     * @param applications
     *            the applications of each tenant that has any, tenants in tree order
     * @param awaitingRefresh
     *            the applications with a completed task since the last refresh, in the order they completed one
     * @param depthLevels
     *            how many tree levels a refresh has walked so far (each empty between refreshes)
     */
    public record Quanta(long nextRefresh, List<TenantApps> applications, List<AppRef> awaitingRefresh,
            int depthLevels) {

        public Quanta {
            applications = List.copyOf(applications);
            awaitingRefresh = List.copyOf(awaitingRefresh);
        }
    }

    /** The applications of the node at position {@code tenant}, sorted by id. */
    public record TenantApps(int tenant, List<App> apps) {

        public TenantApps {
            apps = List.copyOf(apps);
        }
    }

    /** An application's quantum and the tasks it completed since registration, and whether a refresh awaits it. */
    public record App(String id, double quantumMs, long completed, double completedMs, boolean dirty) {
    }

    /** The application {@code id} of the node at position {@code tenant}. */
    public record AppRef(int tenant, String id) {
    }

    /**
     * The running tasks and the quantum calendar ({@code QuantumExpiry}). A task finished while its quantum runs
     * stays in the calendar only, so every task is listed once in {@code table} and referred to by position.
     *
     * @param running
     *            the running tasks, sorted by id
     * @param currentBucket
     *            the calendar's current bucket
     * @param heap
     *            the current bucket's heap, in its array order (re-adding it in order rebuilds the same array)
     * @param later
     *            the later buckets in order, each list in its order
     */
    public record Tasks(List<Task> table, List<Running> running, long currentBucket, List<Integer> heap,
            List<Bucket> later) {

        public Tasks {
            table = List.copyOf(table);
            running = List.copyOf(running);
            heap = List.copyOf(heap);
            later = List.copyOf(later);
        }
    }

    /**
     * A task the ledger holds ({@code RunningTask}).
     *
     * @param tenant
     *            the position of its leaf in {@link LedgerState#nodes}
     * @param application
     *            its application, when it was given a quantum
     * @param size
     *            its share of capacity at start
     * @param young
     *            whether it still counts in its path's quantum top-up
     */
    public record Task(String taskId, int tenant, Optional<String> application, ResourceVector resources, long start,
            double size, long quantumEnd, boolean young) {
    }

    /** The running task {@code taskId}, at position {@code task} of {@link Tasks#table}. */
    public record Running(String taskId, int task) {
    }

    /** A later bucket of the calendar: the positions of its tasks in {@link Tasks#table}, in order. */
    public record Bucket(long bucket, List<Integer> tasks) {

        public Bucket {
            tasks = List.copyOf(tasks);
        }
    }
}
