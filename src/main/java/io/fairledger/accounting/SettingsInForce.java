package io.fairledger.accounting;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.TenancyService;

/**
 * Each cluster's ledger settings in force, with its current tenant tree ({@link TenancyService#ledgerSettings}), read
 * again only when the cluster's configuration version changed ({@link TenancyService#configurationVersion}, one small
 * query): reading them means reading the whole tenant tree. What statements, closing and what-ifs are computed under.
 */
@ApplicationScoped
public class SettingsInForce {

    @Inject
    TenancyService tenancy;

    /** Per cluster: its settings as last read, and the configuration version they were read at. */
    private final Map<String, VersionedSettings> settingsByCluster = new ConcurrentHashMap<>();

    private record VersionedSettings(String version, LedgerSettings settings) {
    }

    /** The settings in force for {@code clusterId}. */
    public LedgerSettings settings(String clusterId) {
        String version = tenancy.configurationVersion(clusterId);
        VersionedSettings known = settingsByCluster.get(clusterId);
        if (known != null && known.version().equals(version)) {
            return known.settings();
        }
        LedgerSettings settings = tenancy.ledgerSettings(clusterId);
        settingsByCluster.put(clusterId, new VersionedSettings(version, settings));
        return settings;
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
