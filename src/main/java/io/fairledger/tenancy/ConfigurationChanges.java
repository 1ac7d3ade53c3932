package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import org.jboss.logging.Logger;

import io.fairledger.audit.AuditTrail;
import io.fairledger.core.model.PlainText;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.replay.TooManyPeriods;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.PreconditionFailed;

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

    private static final Logger LOG = Logger.getLogger(ConfigurationChanges.class);

    /** What a cluster id may be: it appears in URLs, metric labels and Kafka keys. */
    public static final String CLUSTER_ID_PATTERN = "[a-z0-9][a-z0-9-]{0,62}";
    private static final Pattern CLUSTER_ID = Pattern.compile(CLUSTER_ID_PATTERN);

    @Inject
    TenancyService tenancy;

    @Inject
    TenantTree tree;

    @Inject
    ClosablePeriods periods;

    @Inject
    AuditTrail audit;

    @Inject
    ServedConfiguration served;

    /**
     * How long a change's answer waits for this replica's reads to serve it ({@link #awaitServed}): a rebuild of a
     * ledger of 1,000 tenants takes about a second (docs/benchmarks.md), a few times that is a ledger in trouble.
     */
    static final Duration SERVED_WAIT = Duration.ofSeconds(10);

    /** The cluster's configuration version, for {@code ETag} ({@link TenancyService#configurationTag}). */
    public String version(String clusterId) {
        return tenancy.configurationTag(clusterId);
    }

    /**
     * Waits, after a change committed, until this replica's reads of {@code clusterId} serve it, at most
     * {@link #SERVED_WAIT}; whether they do. Never in a transaction: the change must be committed for the live ledger
     * to read it.
     */
    public boolean awaitServed(String clusterId) {
        try {
            return served.awaitServed(clusterId, SERVED_WAIT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

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
        String problem = SettingsLimits.nameProblem(name);
        if (problem != null) {
            throw Invalid.field("name", problem);
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
     * Creates or updates a tenant (and its missing ancestors). Takes effect just after the latest stored fact
     * ({@link ClosablePeriods}): closable periods are closed first. Audited.
     */
    @Transactional
    public TenantView putTenant(String clusterId, String path, BigDecimal weight, BigDecimal discountRateOverride) {
        return putTenant(clusterId, path, weight, discountRateOverride, ExpectedVersion.ANY).value();
    }

    /**
     * {@link #putTenant(String, String, BigDecimal, BigDecimal)} made only on one of the {@code expected} versions,
     * else {@code PreconditionFailed}; returns the tenant as stored with the version it made.
     */
    @Transactional
    public Changed<TenantView> putTenant(String clusterId, String path, BigDecimal weight,
            BigDecimal discountRateOverride, ExpectedVersion expected) {
        String version = checkVersion(clusterId, expected);
        List<Invalid.Field> problems = new ArrayList<>(SettingsLimits.tenantProblems("", weight, discountRateOverride));
        problems.addAll(pathProblems(syntax(clusterId), "path", path));
        if (!problems.isEmpty()) {
            throw SettingsLimits.invalid("invalid tenant", problems);
        }
        // the rows of the tenant and its ancestors, read once: what the change adds, replaces and writes over
        TenantTree.Lineage stored = tree.lineage(clusterId, path);
        checkTenantCount(clusterId, "path", stored.unstored());
        LedgerSettings settingsBefore = settingsInForce(clusterId, version);
        Instant effectiveFrom = closeBeforeChange(clusterId, settingsBefore);
        TenantEntity existing = stored.rows().get(path);
        TenantView before = existing == null ? null : TenantView.of(existing);
        TenantView after = tree.upsertTenant(clusterId, path, weight, discountRateOverride, stored);
        if (settingsBefore != null) {
            // the settings keep the tenants in force before the change in their earlier segments
            LedgerSettings now = tenancy.composedAfter(clusterId, settingsBefore, settingsBefore.tenantList(),
                    List.of(after));
            version = tenancy.storeLedgerSettings(clusterId, settingsBefore,
                    (now == null ? tenancy.composed(clusterId, settingsBefore) : now)
                            .replacing(clusterId, settingsBefore, effectiveFrom));
        } else {
            version = null;
        }
        audit.record(clusterId, "tenant " + path, before, after, effectiveFrom == null ? Instant.now() : effectiveFrom);
        return changed(clusterId, after, version);
    }

    /**
     * The cluster's ledger settings in force, null when it has none yet: its row, which this change locked and read
     * ({@link #checkVersion}, which read its {@code version}), says which. Asks whether the row holds settings rather
     * than reading them: the document (tens of KB with a long {@code earlier}) is read only when the settings kept
     * are not those of {@code version}.
     */
    private LedgerSettings settingsInForce(String clusterId, String version) {
        return tenancy.hasLedgerSettings(clusterId) ? tenancy.ledgerSettings(clusterId, version) : null;
    }

    /** The tenant path syntax of {@code clusterId}'s resource manager. */
    private TenantPath.Syntax syntax(String clusterId) {
        // the cluster row only (the session holds it once read): not whether it has ledger settings, a query each
        return tenancy.entity(clusterId).resourceManager.pathSyntax();
    }

    /**
     * What is wrong with {@code path} as a tenant path in {@code syntax} (its cluster's resource manager's), or in the
     * ranges of {@link SettingsLimits}, named {@code field}.
     */
    private static List<Invalid.Field> pathProblems(TenantPath.Syntax syntax, String field, String path) {
        String problem = TenantPath.problem(syntax, path);
        if (problem == null) {
            problem = SettingsLimits.pathProblem(path);
        }
        return problem == null ? List.of() : List.of(new Invalid.Field(field, problem));
    }

    /**
     * Refuses {@code paths} (valid ones) when storing them and their missing ancestors would give the cluster more
     * than {@link SettingsLimits#MAX_TENANTS} tenants.
     */
    private void checkTenantCount(String clusterId, String field, List<String> paths) {
        TenantPath.Syntax syntax = syntax(clusterId);
        Set<String> wanted = new HashSet<>();
        for (String path : paths) {
            wanted.addAll(TenantPath.parse(path).ancestors(syntax));
            wanted.add(path);
        }
        checkTenantCount(clusterId, field, tree.unstored(clusterId, wanted).size());
    }

    /**
     * Refuses a change that adds {@code added} tenants when that would give the cluster more than
     * {@link SettingsLimits#MAX_TENANTS}.
     */
    private void checkTenantCount(String clusterId, String field, int added) {
        long total = added == 0 ? 0 : tree.tenantCount(clusterId) + added;
        if (total > SettingsLimits.MAX_TENANTS) {
            throw SettingsLimits.invalid("too many tenants", List.of(new Invalid.Field(field, "would make "
                    + total + " tenants of cluster '" + clusterId + "', at most "
                    + SettingsLimits.MAX_TENANTS + " are kept")));
        }
    }

    /**
     * Closes what can be closed before a change ({@link ClosablePeriods}), unless the settings in force
     * ({@code inForce}, null when there are none yet) cannot be replayed: stored out of range by an older version
     * ({@link SettingsLimits}), or cutting more periods than a replay holds. Then nothing can be closed under them, and
     * the change, which must stay possible to repair them, takes effect from the registration (null).
     */
    private Instant closeBeforeChange(String clusterId, LedgerSettings inForce) {
        // the tenant tree is not asked: a tree an older version let grow too deep still replays
        if (inForce != null && !tenancy.problemsInForce(clusterId, inForce).isEmpty()) {
            LOG.warnf("cluster %s: its ledger settings in force are out of range; the change replaces them from the "
                    + "registration without closing periods under them", clusterId);
            return null;
        }
        try {
            return periods.closeBeforeChange(clusterId, inForce);
        } catch (TooManyPeriods e) {
            LOG.warnf("cluster %s: no period closed before the change: %s", clusterId, e.getMessage());
            return null;
        }
    }

    /**
     * Validates and stores a cluster's ledger settings; the tenants they list are created or updated in the tenant
     * tree. Takes effect just after the latest stored fact ({@link ClosablePeriods}; periods that can be closed are closed first
     * with the settings they were kept under, so a change never rewrites a closed period); a change of the period
     * schedule takes effect at the new schedule's first boundary from then ({@link LedgerSettings#replacing}). Audited.
     */
    @Transactional
    public LedgerSettings putLedgerSettings(String clusterId, LedgerSettings settings) {
        return putLedgerSettings(clusterId, settings, ExpectedVersion.ANY).value();
    }

    /**
     * {@link #putLedgerSettings(String, LedgerSettings)} made only on one of the {@code expected} versions, else
     * {@code PreconditionFailed}; returns the settings now in effect with the version they made.
     */
    @Transactional
    public Changed<LedgerSettings> putLedgerSettings(String clusterId, LedgerSettings settings,
            ExpectedVersion expected) {
        String version = checkVersion(clusterId, expected);
        settings.validate(clusterId);
        List<String> paths = new ArrayList<>();
        List<Invalid.Field> problems = new ArrayList<>();
        List<LedgerSettings.Tenant> listed = settings.tenants() == null ? List.of() : settings.tenants();
        TenantPath.Syntax syntax = syntax(clusterId);
        for (int i = 0; i < listed.size(); i++) {
            problems.addAll(pathProblems(syntax, "tenants[" + i + "].path", listed.get(i).path()));
            paths.add(listed.get(i).path());
        }
        if (!problems.isEmpty()) {
            throw SettingsLimits.invalid("invalid ledger settings", problems);
        }
        checkTenantCount(clusterId, "tenants", paths);
        LedgerSettings before = settingsInForce(clusterId, version);
        Instant effectiveFrom = closeBeforeChange(clusterId, before);
        refuseReplayAfterRetention(clusterId, before, settings);
        List<TenantView> written = tree.upsertTenants(clusterId, listed, before == null ? null : before.tenantList());
        LedgerSettings now = before == null
                ? null
                : tenancy.composedAfter(clusterId, settings, before.tenantList(), written);
        String stored = tenancy.storeLedgerSettings(clusterId, before,
                (now == null ? tenancy.composed(clusterId, settings) : now)
                        .replacing(clusterId, before, effectiveFrom));
        LedgerSettings after = tenancy.ledgerSettings(clusterId, stored);
        audit.record(clusterId, "ledger-settings", before == null ? null : before.asChangedFrom(after),
                after.asChangedFrom(before),
                effectiveFrom == null ? after.registeredAt() : effectiveFrom);
        return changed(clusterId, after, stored);
    }

    /**
     * Refuses {@code settings} when they replace {@code before} over the whole history ({@link
     * LedgerSettings#prospectiveAfter}: the registration, capacity, memory, PAR or quantum changed) and retention has
     * dropped facts of the cluster: the history can no longer be replayed. Every other change takes effect from an
     * instant on and needs no dropped fact.
     */
    private void refuseReplayAfterRetention(String clusterId, LedgerSettings before, LedgerSettings settings) {
        if (before == null || settings.prospectiveAfter(clusterId, before)) {
            return;
        }
        periods.replayableFrom(clusterId).ifPresent(floor -> {
            throw new Conflict("the facts of cluster '" + clusterId + "' before " + floor + " were dropped by "
                    + "retention (fairledger.retention.facts), and this change of its registration, capacity, memory, "
                    + "PAR or root quantum replays its whole history under the new settings: it cannot be made any "
                    + "more. Tenants, weights, discount rates, prices, periods and lateness can still change, from "
                    + "just after its latest stored fact.");
        });
    }

    /**
     * Locks the cluster for the rest of the change ({@link TenancyService#lock}) and refuses it when its configuration
     * version is not one {@code expected} allows; returns that version ({@link TenancyService#configurationVersion}).
     */
    private String checkVersion(String clusterId, ExpectedVersion expected) {
        tenancy.lock(clusterId);
        String version = tenancy.configurationVersion(clusterId);
        String current = TenancyService.tagOf(version);
        if (!expected.allows(current)) {
            throw new PreconditionFailed("the configuration of cluster '" + clusterId + "' is now at version \""
                    + current + "\", not the one If-Match names: someone changed it since you read it. Read it "
                    + "again (GET, its ETag) and make your change on what is there now.");
        }
        return version;
    }

    /**
     * {@code value} with the cluster's configuration version as this transaction leaves it: {@code version}, when the
     * change's last write of the cluster's row gave it, else read.
     */
    private <T> Changed<T> changed(String clusterId, T value, String version) {
        if (version != null) {
            return new Changed<>(value, TenancyService.tagOf(version));
        }
        ClusterEntity.getEntityManager().flush();
        return new Changed<>(value, tenancy.configurationTag(clusterId));
    }
}
