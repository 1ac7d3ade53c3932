package io.fairledger.tenancy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.Schedule;

/**
 * The core's replay configuration of ledger settings that keep {@code earlier} entries
 * ({@link LedgerSettings#toReplayConfig}): one segment per entry, oldest first, then the settings' own, each with its
 * tenants in full, folded back from the settings' own through each entry's differences ({@link SettingsSegment}).
 * <p>
 * Given the settings a live ledger went on under last and the configuration made of them, the segments the two share
 * are taken from that configuration instead of built again: those of the entries both hold alike (every entry before
 * the one a change rewrites), once the first segment built anew from there says exactly what the one before said. A
 * change then costs its own segments and the tenant tree, not a segment of every tenant for every change made before
 * it in the settings' history; the configuration is equal to the one built from nothing.
 */
final class SegmentedConfig {

    private SegmentedConfig() {
    }

    /**
     * The configuration of {@code settings} (with {@code earlier}) for {@code clusterId}, replaying up to {@code until}
     * under {@code schedule}; {@code configs} as {@link LedgerSettings#toReplayConfig(String, java.time.Instant, Map,
     * LedgerSettings, ReplayConfig)} takes it; {@code before} and {@code beforeConfig}, the settings last configured and their configuration, or
     * null.
     */
    static ReplayConfig of(LedgerSettings settings, String clusterId, Schedule schedule, long until,
            Map<LedgerSettings.Tenant, TenantConfig> configs, LedgerSettings before, ReplayConfig beforeConfig) {
        List<SettingsSegment> earlier = settings.earlier();
        int n = earlier.size();
        int shared = sharedEntries(earlier, before, beforeConfig);
        ClusterConfig[] clusters = new ClusterConfig[n + 1];
        ChargebackConfig[] prices = new ChargebackConfig[n + 1];
        LedgerSettings own = settings.withSegment(
                new SettingsSegment(settings.discountRate(), settings.chargeback(), null, null, null, null),
                settings.tenantList());
        clusters[n] = own.clusterConfig(clusterId, configs);
        prices[n] = own.chargebackConfig();
        // the segments up to this one are before's (none: -1)
        int reused = -1;
        List<LedgerSettings.Tenant> next = settings.tenantList();
        for (int i = n - 1; i >= 0 && reused < 0; i--) {
            next = earlier.get(i).tenantsBefore(next);
            LedgerSettings segment = settings.withSegment(earlier.get(i), next);
            if (i == shared && shared > 0 && segment.configuresAs(segmentOf(before, i))) {
                // said alike, so configured alike: before's segment, not built again to be compared
                reused = i;
                break;
            }
            clusters[i] = segment.clusterConfig(clusterId, configs);
            prices[i] = segment.chargebackConfig();
            if (i == shared && shared > 0 && clusters[i].equals(clusterOf(beforeConfig, i))
                    && prices[i].equals(pricesOf(beforeConfig, i))) {
                reused = i;
            }
        }
        List<ReplayConfig.Change> changes = new ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            changes.add(i <= reused
                    ? beforeConfig.changes().get(i - 1)
                    : new ReplayConfig.Change(earlier.get(i - 1).until().toEpochMilli(), clusters[i], prices[i]));
        }
        return reused >= 0
                ? new ReplayConfig(beforeConfig.cluster(), schedule, beforeConfig.chargeback(), until, changes)
                : new ReplayConfig(clusters[0], schedule, prices[0], until, changes);
    }

    /**
     * How many entries {@code earlier} starts with that {@code before} holds alike, each configured in
     * {@code beforeConfig} (a change for every entry); 0 when there is nothing to take from them.
     */
    private static int sharedEntries(List<SettingsSegment> earlier, LedgerSettings before,
            ReplayConfig beforeConfig) {
        if (before == null || beforeConfig == null || before.earlier() == null
                || beforeConfig.changes().size() != before.earlier().size()) {
            return 0;
        }
        List<SettingsSegment> theirs = before.earlier();
        int shared = 0;
        while (shared < earlier.size() && shared < theirs.size() && earlier.get(shared).equals(theirs.get(shared))) {
            shared++;
        }
        return shared;
    }

    /**
     * Segment {@code i} of {@code settings} as settings of one segment, when it is their own or the last entry's (the
     * segments a change at a new instant or at the latest one compares); null for another, which is not folded back.
     */
    private static LedgerSettings segmentOf(LedgerSettings settings, int i) {
        List<SettingsSegment> earlier = settings.earlier();
        if (i == earlier.size()) {
            return settings;
        }
        if (i == earlier.size() - 1) {
            return settings.withSegment(earlier.get(i), earlier.get(i).tenantsBefore(settings.tenantList()));
        }
        return null;
    }

    /** The cluster configuration of segment {@code i} of {@code config}: its own for the first, else a change's. */
    private static ClusterConfig clusterOf(ReplayConfig config, int i) {
        return i == 0 ? config.cluster() : config.changes().get(i - 1).cluster();
    }

    /** The prices of segment {@code i} of {@code config}. */
    private static ChargebackConfig pricesOf(ReplayConfig config, int i) {
        return i == 0 ? config.chargeback() : config.changes().get(i - 1).chargeback();
    }
}
