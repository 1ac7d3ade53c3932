package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.Invalid;

/**
 * Writes a cluster's tenant tree: creates and updates tenants and their missing ancestors, each write counted in the
 * cluster's configuration version ({@link TenancyService#configurationVersion}). Called by
 * {@link ConfigurationChanges}, which validates, locks, closes periods and audits first.
 */
@ApplicationScoped
class TenantTree {

    @Inject
    TenancyService tenancy;

    /** How many tenants the cluster's tree holds, its root included. */
    long tenantCount(String clusterId) {
        return TenantEntity.count("clusterId", clusterId);
    }

    /**
     * Those of {@code paths} the cluster has no tenant at: a few are looked up by path, many against every stored path
     * (one query either way).
     */
    Set<String> unstored(String clusterId, Set<String> paths) {
        Set<String> out = new HashSet<>(paths);
        if (out.isEmpty()) {
            return out;
        }
        var query = paths.size() <= PATHS_LOOKED_UP
                ? TenantEntity.getEntityManager()
                        .createQuery("SELECT t.path FROM TenantEntity t WHERE t.clusterId = ?1 AND t.path IN ?2",
                                String.class)
                        .setParameter(2, paths)
                : TenantEntity.getEntityManager()
                        .createQuery("SELECT t.path FROM TenantEntity t WHERE t.clusterId = ?1", String.class);
        // one remove per stored path: Set.removeAll(list) asks list.contains for every path unless the set is larger
        query.setParameter(1, clusterId).getResultList().forEach(out::remove);
        return out;
    }

    /** The most paths {@link #unstored} names in one query. */
    private static final int PATHS_LOOKED_UP = 500;

    /** Counts one change of the cluster's tenant tree in its configuration version. */
    private static void countChange(String clusterId) {
        ClusterEntity.getEntityManager().createNativeQuery(
                "UPDATE cluster SET configuration_version = nextval('cluster_configuration_version') WHERE id = ?1")
                .setParameter(1, clusterId).executeUpdate();
    }

    /**
     * The stored rows of {@code path} (a tenant path of the cluster's resource manager, else {@code Invalid}) and of
     * its ancestors, by path, in one query; a path without a row is not stored yet. What {@link #upsertTenant} writes
     * over, read first so that the change can count what it adds and show what it replaces.
     */
    @Transactional
    Lineage lineage(String clusterId, String path) {
        ClusterEntity cluster = tenancy.entity(clusterId);
        Set<String> paths = new HashSet<>(TenantPath.parse(checkedPath(cluster, path))
                .ancestors(cluster.resourceManager.pathSyntax()));
        paths.add(path);
        return new Lineage(paths, rows(clusterId, paths));
    }

    /** A tenant path and its ancestors ({@code paths}), and the rows stored of them by path ({@code rows}). */
    record Lineage(Set<String> paths, Map<String, TenantEntity> rows) {

        /** How many of the paths have no row yet: the tenants an upsert adds. */
        int unstored() {
            return (int) paths.stream().filter(p -> !rows.containsKey(p)).count();
        }
    }

    /**
     * Creates or updates a tenant, whose {@link #lineage} is {@code stored} (read in this transaction). Missing
     * ancestors are created with the default weight, as YARN creates parent queues; an existing tenant keeps its
     * override when none is given.
     */
    @Transactional
    TenantView upsertTenant(String clusterId, String path, BigDecimal weight, BigDecimal discountRateOverride,
            Lineage stored) {
        ClusterEntity cluster = tenancy.entity(clusterId);
        Map<String, TenantEntity> byPath = new HashMap<>(stored.rows());
        List<TenantEntity> written = new ArrayList<>();
        TenantEntity tenant = upsert(cluster, byPath, path, weight, discountRateOverride, written);
        if (!written.isEmpty()) {
            countChange(clusterId);
        }
        return TenantView.of(tenant);
    }

    /**
     * {@link #upsertTenant} for each of {@code tenants}, in one transaction. {@code stored} is the tree as it stands
     * (as the ledger settings in force name it; null: not known): the tenants it holds with the same values are left
     * alone, and only the rows of the others and of their ancestors are read, so a document listing 10,000 tenants
     * that changes two weights reads and writes two. The cost grows with the tenants written, not with their square
     * (no query, hence no flush, between two upserts). Returns the tenants written, ancestors created included.
     */
    @Transactional
    List<TenantView> upsertTenants(String clusterId, List<LedgerSettings.Tenant> tenants,
            List<LedgerSettings.Tenant> stored) {
        ClusterEntity cluster = tenancy.entity(clusterId);
        List<LedgerSettings.Tenant> changing = stored == null ? tenants : changing(tenants, stored);
        if (changing.isEmpty()) {
            return List.of();
        }
        Set<String> paths = new HashSet<>();
        for (LedgerSettings.Tenant t : changing) {
            paths.addAll(TenantPath.parse(checkedPath(cluster, t.path())).ancestors(cluster.resourceManager
                    .pathSyntax()));
            paths.add(t.path());
        }
        Map<String, TenantEntity> byPath = rows(clusterId, paths);
        List<TenantEntity> written = new ArrayList<>();
        for (LedgerSettings.Tenant t : changing) {
            upsert(cluster, byPath, t.path(), BigDecimal.valueOf(t.weight()),
                    t.discountRateOverride() == null ? null : BigDecimal.valueOf(t.discountRateOverride()), written);
        }
        if (!written.isEmpty()) {
            countChange(clusterId);
        }
        return written.stream().map(TenantView::of).toList();
    }

    /**
     * The cluster's stored tenants at {@code paths} (and maybe others), by path, in one query: a few looked up by path,
     * many read with every tenant of the cluster.
     */
    private static Map<String, TenantEntity> rows(String clusterId, Set<String> paths) {
        Map<String, TenantEntity> byPath = new HashMap<>();
        for (TenantEntity t : paths.size() <= PATHS_LOOKED_UP
                ? TenantEntity.<TenantEntity>list("clusterId = ?1 AND path IN ?2", clusterId, paths)
                : TenantEntity.ofCluster(clusterId)) {
            byPath.put(t.path, t);
        }
        return byPath;
    }

    /**
     * Those of {@code tenants} that {@code stored} lacks or holds with another weight, or with another override when
     * they give one (one given none keeps the stored override).
     */
    private static List<LedgerSettings.Tenant> changing(List<LedgerSettings.Tenant> tenants,
            List<LedgerSettings.Tenant> stored) {
        Map<String, LedgerSettings.Tenant> known = new HashMap<>();
        for (LedgerSettings.Tenant t : stored) {
            known.put(t.path(), t);
        }
        List<LedgerSettings.Tenant> out = new ArrayList<>();
        for (LedgerSettings.Tenant t : tenants) {
            LedgerSettings.Tenant k = known.get(t.path());
            if (k == null || k.weight() != t.weight() || t.discountRateOverride() != null
                    && !t.discountRateOverride().equals(k.discountRateOverride())) {
                out.add(t);
            }
        }
        return out;
    }

    /** {@code path} if it is a tenant path of the cluster's resource manager; {@code Invalid} saying why if not. */
    private static String checkedPath(ClusterEntity cluster, String path) {
        String problem = TenantPath.problem(cluster.resourceManager.pathSyntax(), path);
        if (problem != null) {
            throw new Invalid(problem);
        }
        return path;
    }

    /**
     * Upserts {@code path} and its missing ancestors, looking tenants up in (and adding them to) {@code byPath}; adds
     * the rows it writes to {@code written}.
     */
    private static TenantEntity upsert(ClusterEntity cluster, Map<String, TenantEntity> byPath, String path,
            BigDecimal weight, BigDecimal discountRateOverride, List<TenantEntity> written) {
        for (String ancestor : TenantPath.parse(path).ancestors(cluster.resourceManager.pathSyntax())) {
            byPath.computeIfAbsent(ancestor,
                    a -> save(new TenantEntity(), cluster, a, TenancyService.DEFAULT_WEIGHT, null, written));
        }
        TenantEntity tenant = byPath.get(path);
        if (tenant == null) {
            tenant = new TenantEntity();
        } else if (discountRateOverride == null) {
            discountRateOverride = tenant.discountRateOverride;
        }
        TenantEntity saved = save(tenant, cluster, path, weight == null ? TenancyService.DEFAULT_WEIGHT : weight,
                discountRateOverride, written);
        byPath.put(path, saved);
        return saved;
    }

    /**
     * Stores {@code tenant} with these values; one that holds them already is left as it is, so a document that lists
     * every tenant writes only the rows that change (and the configuration version moves only with those).
     */
    private static TenantEntity save(TenantEntity tenant, ClusterEntity cluster, String path, BigDecimal weight,
            BigDecimal discountRateOverride, List<TenantEntity> written) {
        if (tenant.id != null && sameValue(tenant.weight, weight)
                && sameValue(tenant.discountRateOverride, discountRateOverride)) {
            return tenant;
        }
        tenant.clusterId = cluster.id;
        tenant.path = path;
        tenant.parentPath = TenantPath.parse(path).parent(cluster.resourceManager.pathSyntax());
        tenant.weight = weight;
        tenant.discountRateOverride = discountRateOverride;
        tenant.updatedAt = OffsetDateTime.now();
        tenant.persist();
        written.add(tenant);
        return tenant;
    }

    /** Whether two stored numbers are equal, whatever their scale (1 and 1.000000 are one weight). */
    private static boolean sameValue(BigDecimal a, BigDecimal b) {
        return a == null ? b == null : b != null && a.compareTo(b) == 0;
    }
}
