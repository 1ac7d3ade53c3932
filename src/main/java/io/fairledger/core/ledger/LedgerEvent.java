package io.fairledger.core.ledger;

import java.util.Objects;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * What a resource manager reports, in event time (epoch millis at the resource manager). The ledger of one cluster
 * consumes these through {@link ClusterLedger#apply(LedgerEvent)}; the Kafka ingestion, the offline commands and the
 * simulator build them.
 */
public sealed interface LedgerEvent {

    /** The cluster the event belongs to. */
    String clusterId();

    /** Event time, epoch millis. */
    long at();

    /**
     * A task (YARN container, Mesos task) started holding {@code resources} for {@code tenant}.
     *
     * @param applicationId
     *            the YARN application / Mesos framework, used by the adaptive quantum; empty when unknown
     */
    record TaskStarted(String clusterId, String taskId, TenantPath tenant, String applicationId,
            ResourceVector resources, long at) implements LedgerEvent {
        public TaskStarted {
            requireId(clusterId, "cluster id");
            requireId(taskId, "task id");
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isRoot()) {
                throw new IllegalArgumentException(
                        "a task must belong to a tenant, not the root (task " + taskId + ")");
            }
            applicationId = applicationId == null ? "" : applicationId;
            Objects.requireNonNull(resources, "resources");
        }
    }

    /** A running task finished (or was killed, or its node was lost). */
    record TaskFinished(String clusterId, String taskId, long at) implements LedgerEvent {
        public TaskFinished {
            requireId(clusterId, "cluster id");
            requireId(taskId, "task id");
        }
    }

    /**
     * One application's pending (requested, not yet running) resources for {@code tenant} are now {@code pending},
     * replacing that application's last value; the tenant's demand is the sum over its applications. So reports of
     * several applications at the same instant all count, in whatever order they are applied.
     *
     * @param applicationId
     *            the application (YARN application, Mesos framework) reporting; empty for a report of the tenant's
     *            whole demand
     */
    record DemandChanged(String clusterId, TenantPath tenant, String applicationId, ResourceVector pending, long at)
            implements
                LedgerEvent {
        public DemandChanged {
            requireId(clusterId, "cluster id");
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isRoot()) {
                throw new IllegalArgumentException("demand must belong to a tenant, not the root");
            }
            applicationId = applicationId == null ? "" : applicationId;
            Objects.requireNonNull(pending, "pending");
        }

        /** The tenant's whole pending demand (no application named). */
        public DemandChanged(String clusterId, TenantPath tenant, ResourceVector pending, long at) {
            this(clusterId, tenant, "", pending, at);
        }
    }

    /** The cluster's capacity is now {@code capacity} (nodes joined or left). */
    record CapacityChanged(String clusterId, ResourceVector capacity, long at) implements LedgerEvent {
        public CapacityChanged {
            requireId(clusterId, "cluster id");
            Objects.requireNonNull(capacity, "capacity");
        }
    }

    /** An administrator set the weight of {@code tenant}. */
    record WeightChanged(String clusterId, TenantPath tenant, double weight, long at) implements LedgerEvent {
        public WeightChanged {
            requireId(clusterId, "cluster id");
            Objects.requireNonNull(tenant, "tenant");
            if (tenant.isRoot()) {
                throw new IllegalArgumentException("the root has no weight");
            }
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("weight must be finite and >= 0, got " + weight);
            }
        }
    }

    private static void requireId(String id, String what) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException(what + " must not be blank");
        }
    }
}
