package io.fairledger.tenancy;

import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.regex.Pattern;

import io.fairledger.audit.AuditTrail;
import io.fairledger.core.model.PlainText;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * The one way a cluster's configuration changes, whoever asks: the admin API and the registration events from Kafka
 * call the same methods, so both obey the same rules. Each change is validated, closes the periods it must not
 * rewrite ({@link ClosablePeriods}), is written in one transaction and is audited with the instant it takes effect
 * from. The request context is activated for callers without one (the consumer thread), whose changes the audit
 * trail then records as made by {@code anonymous}.
 */
@ApplicationScoped
@ActivateRequestContext
public class ConfigurationChanges {

    /** What a cluster id may be: it appears in URLs, metric labels and Kafka keys. */
    public static final String CLUSTER_ID_PATTERN = "[a-z0-9][a-z0-9-]{0,62}";
    private static final Pattern CLUSTER_ID = Pattern.compile(CLUSTER_ID_PATTERN);
    private static final BigDecimal MAX_WEIGHT = BigDecimal.valueOf(1_000_000);

    @Inject
    TenancyService tenancy;

    @Inject
    ClosablePeriods periods;

    @Inject
    AuditTrail audit;

    /** Registers a new cluster; {@code Conflict} if the id is taken. Audited. */
    @Transactional
    public ClusterView registerCluster(String id, String name, ResourceManagerKind kind, BigDecimal discountRate) {
        checkClusterNames(id, name);
        ClusterView cluster = ClusterView.of(tenancy.register(id, name, kind, discountRate));
        audit.record(cluster.id(), "cluster", null, cluster, Instant.now());
        return cluster;
    }

    /**
     * The cluster id rule of the REST body ({@code ClusterAdminResource}) and plain-text names ({@link PlainText}),
     * checked here for registrations from Kafka and the portal too.
     */
    private static void checkClusterNames(String id, String name) {
        if (id == null || !CLUSTER_ID.matcher(id).matches()) {
            throw Invalid.field("id",
                    "must be 1-63 lower-case letters, digits or '-', starting with a letter or digit");
        }
        String problem = PlainText.problem(name);
        if (problem != null) {
            throw Invalid.field("name", "contains " + problem);
        }
    }

    /**
     * Registers a cluster unless it already is, as a registration event asks: a redelivered registration changes
     * nothing and is not audited again; {@code Conflict} if it is registered as another kind of resource manager.
     */
    @Transactional
    public ClusterView ensureCluster(String id, String name, ResourceManagerKind kind) {
        ClusterEntity existing = ClusterEntity.findById(id);
        if (existing == null) {
            return registerCluster(id, name, kind, null);
        }
        if (existing.resourceManager != kind) {
            throw new Conflict("cluster '" + id + "' is registered as " + existing.resourceManager + ", not " + kind);
        }
        return ClusterView.of(existing);
    }

    /**
     * Creates or updates a tenant (and its missing ancestors). Takes effect from the start of the earliest period not
     * closed: closable periods are closed first. Audited.
     */
    @Transactional
    public TenantView putTenant(String clusterId, String path, BigDecimal weight, BigDecimal discountRateOverride) {
        checkTenantSettings(weight, discountRateOverride);
        Instant effectiveFrom = periods.closeBeforeChange(clusterId);
        TenantEntity existing = TenantEntity.byPath(clusterId, path);
        TenantView before = existing == null ? null : TenantView.of(existing);
        TenantView after = tenancy.upsertTenant(clusterId, path, weight, discountRateOverride);
        audit.record(clusterId, "tenant " + path, before, after, effectiveFrom == null ? Instant.now() : effectiveFrom);
        return after;
    }

    /**
     * The ranges the tenant columns hold (NUMERIC(12,6) weight, NUMERIC(6,5) rate), checked for every path: the REST
     * body states them as Bean Validation too, but the portal and Kafka registrations come here directly.
     */
    private static void checkTenantSettings(BigDecimal weight, BigDecimal discountRateOverride) {
        if (weight != null && (weight.signum() < 0 || weight.compareTo(MAX_WEIGHT) > 0
                || weight.stripTrailingZeros().scale() > 6)) {
            throw Invalid.field("weight", "must be from 0 to 1000000 with at most 6 decimal places, got "
                    + weight.toPlainString());
        }
        if (discountRateOverride != null && (discountRateOverride.signum() < 0
                || discountRateOverride.compareTo(BigDecimal.ONE) > 0
                || discountRateOverride.stripTrailingZeros().scale() > 5)) {
            throw Invalid.field("discountRateOverride", "must be from 0 to 1 with at most 5 decimal places, got "
                    + discountRateOverride.toPlainString());
        }
    }

    /**
     * Validates and stores a cluster's ledger settings; the tenants they list are created or updated in the tenant
     * tree. Takes effect from the start of the earliest period not closed (periods that can be closed are closed first
     * with the settings they were kept under, so a change never rewrites a closed period). Audited.
     */
    @Transactional
    public LedgerSettings putLedgerSettings(String clusterId, LedgerSettings settings) {
        LedgerSettings before = tenancy.hasLedgerSettings(clusterId) ? tenancy.ledgerSettings(clusterId) : null;
        Instant effectiveFrom = periods.closeBeforeChange(clusterId);
        settings.validate(clusterId);
        tenancy.upsertTenants(clusterId, settings.tenants() == null ? List.of() : settings.tenants());
        tenancy.storeLedgerSettings(clusterId, settings);
        LedgerSettings after = tenancy.ledgerSettings(clusterId);
        audit.record(clusterId, "ledger-settings", before, after,
                effectiveFrom == null ? after.registeredAt() : effectiveFrom);
        return after;
    }
}
