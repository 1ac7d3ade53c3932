package io.fairledger.ingest;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import io.fairledger.core.model.TenantPath;
import io.fairledger.tenancy.SettingsLimits;

/**
 * The bound on the tenants events may create in a cluster: the ledger creates the queue or role an event names, and its
 * parents (as YARN creates parent queues), so without a bound 20,000 events make 20,000 tenants and a grants answer of
 * megabytes. A cluster has at most {@link SettingsLimits#MAX_TENANTS} tenants, the root and implicit ancestors
 * included, the same bound as its ledger settings. The tenants known at a cluster's first event are those its
 * {@code seed} names (its registered tenants); then every tenant an accepted event names is added. Not thread-safe:
 * one intake, one thread.
 */
public final class TenantBound {

    /** The reason code of an event that would add a tenant beyond the bound. */
    public static final String TOO_MANY_TENANTS = "too-many-tenants";

    private final int max;
    private final Function<String, Collection<String>> seed;
    private final Map<String, Set<TenantPath>> known = new HashMap<>();

    /**
     * @param max  the most tenants of a cluster, the root and implicit ancestors included
     * @param seed a cluster's tenant paths known before its first event (its registered tenants)
     */
    public TenantBound(int max, Function<String, Collection<String>> seed) {
        this.max = max;
        this.seed = seed;
    }

    /** The bound of {@link SettingsLimits#MAX_TENANTS}, each cluster seeded by {@code seed}. */
    public static TenantBound of(Function<String, Collection<String>> seed) {
        return new TenantBound(SettingsLimits.MAX_TENANTS, seed);
    }

    /**
     * Admits {@code tenant} into {@code clusterId} (it and its ancestors are then known), or answers why not: the
     * dead-letter reason, starting with {@link #TOO_MANY_TENANTS}.
     */
    public String admit(String clusterId, TenantPath tenant) {
        Set<TenantPath> tenants = known.computeIfAbsent(clusterId, this::seeded);
        List<TenantPath> added = new ArrayList<>();
        for (TenantPath at = tenant; !tenants.contains(at); at = at.parent()) {
            added.add(at);
        }
        if (tenants.size() + added.size() > max) {
            return TOO_MANY_TENANTS + ": tenant '" + tenant + "' would add " + added.size() + " tenant(s) to cluster '"
                    + clusterId + "', which has " + tenants.size() + "; a cluster has at most " + max
                    + " tenants, the root and implicit ancestors included";
        }
        tenants.addAll(added);
        return null;
    }

    private Set<TenantPath> seeded(String clusterId) {
        Set<TenantPath> tenants = new HashSet<>();
        tenants.add(TenantPath.ROOT);
        for (String path : seed.apply(clusterId)) {
            TenantPath at = TenantPath.parse(path);
            while (tenants.add(at)) {
                at = at.parent();
            }
        }
        return tenants;
    }
}
