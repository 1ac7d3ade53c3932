package io.fairledger.accounting;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.model.TenantPath;
import io.fairledger.core.replay.Replay;
import io.fairledger.tenancy.LedgerSettings;

/** How a what-if's variant lists its tenants against the live settings ({@link WhatIfService}). */
final class WhatIfVariant {

    private WhatIfVariant() {
    }

    /**
     * {@code variant} with its tenants in the order of {@code live}'s when both list the same tenants, else as it is.
     * The order of the list only decides in which order the ledger creates the nodes (which moves results by
     * floating-point rounding at most); listing the tenants in another order is not another configuration, and a
     * what-if that starts at a round continues the live ledger's tree ({@link Replay#reweightStart} asks for the
     * same order).
     */
    static LedgerSettings inLiveOrder(LedgerSettings variant, LedgerSettings live) {
        if (live.tenants() == null || live.tenants().size() != variant.tenants().size()) {
            return variant;
        }
        Map<TenantPath, LedgerSettings.Tenant> byPath = new HashMap<>();
        try {
            for (LedgerSettings.Tenant t : variant.tenants()) {
                byPath.put(TenantPath.parse(t.path()), t);
            }
            List<LedgerSettings.Tenant> ordered = new ArrayList<>(byPath.size());
            for (LedgerSettings.Tenant t : live.tenants()) {
                LedgerSettings.Tenant same = byPath.get(TenantPath.parse(t.path()));
                if (same == null) {
                    return variant;
                }
                ordered.add(same);
            }
            return byPath.size() == variant.tenants().size() ? variant.withTenants(ordered) : variant;
        } catch (IllegalArgumentException e) {
            return variant; // an invalid path is refused with the rest of the settings
        }
    }
}
