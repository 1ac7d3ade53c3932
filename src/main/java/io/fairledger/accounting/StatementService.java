package io.fairledger.accounting;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.ingest.FactStore;
import io.fairledger.tenancy.ClusterEntity;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.tenancy.TenantEntity;
import io.fairledger.web.ProblemException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

/**
 * A cluster's ledger settings and statements. Statements are {@link Books#statements} over the stored facts: the very
 * computation {@code fairledger account} runs on a file.
 */
@ApplicationScoped
public class StatementService {

    @Inject
    TenancyService tenancy;

    @Inject
    FactStore facts;

    @Inject
    ObjectMapper json;

    /** Validates and stores {@code settings}; the tenants it lists are created or updated in the tenant tree. */
    @Transactional
    public LedgerSettings putSettings(String clusterId, LedgerSettings settings) {
        ClusterEntity cluster = tenancy.cluster(clusterId);
        try {
            settings.toReplayConfig(clusterId,
                    settings.registeredAt() == null ? Instant.EPOCH : settings.registeredAt());
        } catch (IllegalArgumentException e) {
            throw ProblemException.unprocessable("invalid ledger settings: " + e.getMessage());
        }
        for (LedgerSettings.Tenant t : settings.tenants() == null
                ? List.<LedgerSettings.Tenant>of()
                : settings.tenants()) {
            tenancy.upsertTenant(clusterId, t.path(), BigDecimal.valueOf(t.weight()),
                    t.discountOverride() == null ? null : BigDecimal.valueOf(t.discountOverride()));
        }
        try {
            cluster.ledgerSettings = json.writeValueAsString(settings.withTenants(null));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise ledger settings", e);
        }
        return settings(clusterId);
    }

    /** The settings with the cluster's current tenant tree. */
    public LedgerSettings settings(String clusterId) {
        ClusterEntity cluster = tenancy.cluster(clusterId);
        if (cluster.ledgerSettings == null) {
            throw ProblemException.conflict("cluster '" + clusterId + "' has no ledger settings yet: PUT them to "
                    + "/api/v1/admin/clusters/" + clusterId + "/ledger-settings");
        }
        LedgerSettings stored;
        try {
            stored = json.readValue(cluster.ledgerSettings, LedgerSettings.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored ledger settings of " + clusterId + " are unreadable", e);
        }
        List<LedgerSettings.Tenant> tenants = new ArrayList<>();
        for (TenantEntity t : tenancy.tenants(clusterId)) {
            if (!t.path.equals("root")) {
                tenants.add(new LedgerSettings.Tenant(t.path, t.weight.doubleValue(),
                        t.discountRateOverride == null ? null : t.discountRateOverride.doubleValue(), ""));
            }
        }
        return stored.withTenants(tenants);
    }

    /** Statements of every period closed by {@code until}. */
    public List<StatementView> statements(String clusterId, Instant until) {
        LedgerSettings settings = settings(clusterId);
        if (until.isBefore(settings.registeredAt())) {
            throw ProblemException.unprocessable("until " + until + " is before the cluster's registration "
                    + settings.registeredAt());
        }
        try {
            return Books.statements(clusterId, settings, facts.facts(clusterId), until);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot read the facts of " + clusterId, e);
        }
    }
}
