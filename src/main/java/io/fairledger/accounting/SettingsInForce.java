package io.fairledger.accounting;

import java.time.Instant;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.TenancyService;

/**
 * Each cluster's ledger settings in force, with its current tenant tree ({@link TenancyService#ledgerSettings}, which
 * composes them again only when the cluster's configuration version moved). What statements, closing and what-ifs are
 * computed under.
 */
@ApplicationScoped
public class SettingsInForce {

    @Inject
    TenancyService tenancy;

    /** The settings in force for {@code clusterId}. */
    public LedgerSettings settings(String clusterId) {
        return tenancy.ledgerSettings(clusterId);
    }

    /**
     * The settings in force for {@code clusterId}, whose configuration version the caller has just read
     * ({@link TenancyService#ledgerSettings(String, String)}).
     */
    public LedgerSettings settings(String clusterId, String version) {
        return tenancy.ledgerSettings(clusterId, version);
    }

    /**
     * The settings in force for a read of the statements ended by {@code until}.
     *
     * @throws Invalid when {@code until} is before the cluster's registration
     */
    public LedgerSettings settingsUntil(String clusterId, Instant until) {
        LedgerSettings settings = settings(clusterId);
        if (until.isBefore(settings.registeredAt())) {
            throw new Invalid("until " + until + " is before the cluster's registration "
                    + settings.registeredAt());
        }
        return settings;
    }
}
