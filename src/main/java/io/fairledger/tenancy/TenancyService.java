package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.LockModeType;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;

/**
 * Registers clusters and maintains their tenant trees. The admin API and the registration events from Kafka both go
 * through here, so both obey the same rules.
 */
@ApplicationScoped
public class TenancyService {

    @Inject
    ObjectMapper json;

    /** The weight an implicitly created ancestor gets (docs/domain.md section 1: default 1). */
    public static final BigDecimal DEFAULT_WEIGHT = BigDecimal.ONE;

    /** Registers a new cluster; 409 if the id is taken. */
    @Transactional
    ClusterEntity register(String id, String name, ResourceManagerKind kind, BigDecimal discountRate) {
        if (ClusterEntity.findById(id) != null) {
            throw new Conflict("cluster '" + id + "' is already registered");
        }
        ClusterEntity cluster = new ClusterEntity();
        cluster.id = id;
        cluster.name = name == null || name.isBlank() ? id : name;
        cluster.resourceManager = kind;
        cluster.discountRate = discountRate == null ? BigDecimal.ONE : discountRate;
        cluster.persist();
        return cluster;
    }

    /** The ids of every registered cluster. */
    @Transactional
    public Set<String> clusterIds() {
        return new HashSet<>(ClusterEntity.getEntityManager()
                .createQuery("SELECT c.id FROM ClusterEntity c", String.class).getResultList());
    }

    /**
     * When each registered cluster's books start: the {@code registeredAt} of its ledger settings, or
     * {@link Instant#MIN} while it has none (the consumer refuses events before it).
     */
    @Transactional
    public Map<String, Instant> registrations() {
        Map<String, Instant> out = new HashMap<>();
        for (ClusterEntity cluster : clusterEntities()) {
            Instant registeredAt = Instant.MIN;
            if (cluster.ledgerSettings != null) {
                try {
                    LedgerSettings settings = json.readValue(cluster.ledgerSettings, LedgerSettings.class);
                    if (settings.registeredAt() != null) {
                        registeredAt = settings.registeredAt();
                    }
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException("stored ledger settings of " + cluster.id + " are unreadable", e);
                }
            }
            out.put(cluster.id, registeredAt);
        }
        return out;
    }

    /** Every registered cluster, by id. */
    public List<RegisteredCluster> clusters() {
        // values, not managed entities: the live tick reads this list first and a cluster's settings later in the same
        // session, and an entity this list had loaded would hand it the settings as they were then while the version
        // query already sees a change committed since (the ledger would keep stale settings under the new version)
        return ClusterEntity.getEntityManager().createQuery("SELECT c.id, c.name, c.resourceManager, "
                + "CASE WHEN c.ledgerSettings IS NULL THEN false ELSE true END FROM ClusterEntity c ORDER BY c.id",
                Object[].class).getResultStream()
                .map(r -> new RegisteredCluster((String) r[0], (String) r[1], (ResourceManagerKind) r[2],
                        (Boolean) r[3]))
                .toList();
    }

    /** A registered cluster; {@code NotFound} when there is none with that id. */
    public RegisteredCluster cluster(String id) {
        ClusterEntity cluster = entity(id);
        return new RegisteredCluster(cluster.id, cluster.name, cluster.resourceManager, hasLedgerSettings(id));
    }

    private static List<ClusterEntity> clusterEntities() {
        return ClusterEntity.listAll(io.quarkus.panache.common.Sort.by("id"));
    }

    ClusterEntity entity(String id) {
        ClusterEntity cluster = ClusterEntity.findById(id);
        if (cluster == null) {
            throw new NotFound("no cluster '" + id + "' is registered");
        }
        return cluster;
    }

    /**
     * The cluster's configuration version: a number that moves whenever its ledger settings or its tenant tree change
     * (every write of either counts itself: {@link #storeLedgerSettings}, {@link TenantTree}), never back to a number
     * it had (a sequence's, so not even after a change rolled back); with the row's {@code xmin}, so that a row written
     * behind the server's back (by hand, or by a restore) counts as a change too. One read of the cluster's row, for
     * callers that cache what they derive from the configuration. Empty when there is no such cluster.
     */
    public String configurationVersion(String clusterId) {
        Object version = ClusterEntity.getEntityManager()
                .createNativeQuery("SELECT configuration_version || ':' || xmin::text FROM cluster WHERE id = ?1")
                .setParameter(1, clusterId)
                .getResultStream().findFirst().orElse(null);
        return version == null ? "" : version.toString();
    }

    /**
     * {@link #configurationVersion} as a short token, what the admin API sends as {@code ETag} and takes back as
     * {@code If-Match}: the first 32 hex digits of its SHA-256 (the version itself holds spaces, which a tag may not).
     */
    public String configurationTag(String clusterId) {
        return tagOf(configurationVersion(clusterId));
    }

    /** The {@link #configurationTag} of {@code version}, a {@link #configurationVersion}. */
    static String tagOf(String version) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(version.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * Locks the cluster's row until the transaction ends, so configuration changes of one cluster run one at a time
     * and a version checked in one ({@link ExpectedVersion}) cannot change before it commits; {@code NotFound} when
     * there is no such cluster.
     */
    void lock(String clusterId) {
        ClusterEntity cluster = ClusterEntity.findById(clusterId, LockModeType.PESSIMISTIC_WRITE);
        if (cluster == null) {
            throw new NotFound("no cluster '" + clusterId + "' is registered");
        }
    }

    /** Whether the cluster has ledger settings yet. */
    public boolean hasLedgerSettings(String clusterId) {
        Object has = ClusterEntity.getEntityManager()
                .createNativeQuery("SELECT ledger_settings IS NOT NULL FROM cluster WHERE id = ?1")
                .setParameter(1, clusterId).getResultStream().findFirst().orElse(null);
        if (has == null) {
            throw new NotFound("no cluster '" + clusterId + "' is registered");
        }
        return (Boolean) has;
    }

    /**
     * The cluster's ledger settings with its current tenant tree; {@code Conflict} when it has none yet. Composed again
     * only when the configuration version moved (reading them means reading the whole tenant tree and settings
     * document): one small query otherwise.
     */
    public LedgerSettings ledgerSettings(String clusterId) {
        return ledgerSettings(clusterId, configurationVersion(clusterId));
    }

    /**
     * {@link #ledgerSettings(String)} when the caller has just read the cluster's {@code version}
     * ({@link #configurationVersion}): composed again only when it is not the version they were composed at.
     */
    public LedgerSettings ledgerSettings(String clusterId, String version) {
        VersionedSettings known = settingsByCluster.get(clusterId);
        if (known != null && known.version().equals(version)) {
            return known.settings();
        }
        // the version read before the settings: should a change commit between the two, the next read composes again
        LedgerSettings settings = readLedgerSettings(clusterId);
        settingsByCluster.put(clusterId, new VersionedSettings(version, settings, false));
        return settings;
    }

    /** {@link #ledgerSettings} composed from what is stored now, whatever was kept. */
    LedgerSettings readLedgerSettings(String clusterId) {
        ClusterEntity cluster = entity(clusterId);
        String document = SettingsRows.document(clusterId);
        if (document == null) {
            throw new Conflict("cluster '" + clusterId + "' has no ledger settings yet: PUT them to "
                    + "/api/v1/admin/clusters/" + clusterId + "/ledger-settings");
        }
        return composed(cluster, parsed(clusterId, document));
    }

    /** Per cluster, its settings as last composed, and the configuration version they were composed at. */
    private final Map<String, VersionedSettings> settingsByCluster = new ConcurrentHashMap<>();

    /** {@code madeHere}: kept when this server stored them, not read from the database. */
    private record VersionedSettings(String version, LedgerSettings settings, boolean madeHere) {
    }

    /** Keeps {@code settings} as the cluster's under {@code version}, the one this transaction has given it. */
    private void keep(String clusterId, String version, LedgerSettings settings) {
        settingsByCluster.put(clusterId, new VersionedSettings(version, settings, true));
    }

    /**
     * What is out of the ranges of {@link SettingsLimits} in {@code inForce} ({@link #ledgerSettings}'s), tenants
     * aside: their own members, and their {@code earlier} unless this server stored them. Entries read from the
     * database may hold what an older version or a hand let through; those a change makes hold values a change found
     * in range (else it takes effect from the registration, keeping none): not checked again at every change.
     */
    List<Invalid.Field> problemsInForce(String clusterId, LedgerSettings inForce) {
        return SettingsLimits.problems(
                (madeHere(clusterId, inForce) ? inForce.withEarlier(null) : inForce).withTenants(null), "");
    }

    /** Whether {@code settings} are the cluster's as this server kept them when it stored them. */
    private boolean madeHere(String clusterId, LedgerSettings settings) {
        VersionedSettings known = settingsByCluster.get(clusterId);
        return known != null && known.settings() == settings && known.madeHere();
    }

    private LedgerSettings parsed(String clusterId, String text) {
        return parsed(clusterId, text, LEDGER_SETTINGS);
    }

    private <T> T parsed(String clusterId, String text, TypeReference<T> type) {
        try {
            return json.readValue(text, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored ledger settings of " + clusterId + " are unreadable", e);
        }
    }

    /**
     * {@code settings} as the cluster's ledger runs them: with its tenant tree as it stands in this transaction for
     * their tenants, and the cluster's discount rate when they name none.
     */
    LedgerSettings composed(String clusterId, LedgerSettings settings) {
        return composed(entity(clusterId), settings);
    }

    private static LedgerSettings composed(ClusterEntity cluster, LedgerSettings settings) {
        return composed(cluster, settings, tree(cluster.id));
    }

    /** {@code settings} with {@code tenants}, and the cluster's discount rate when they name none. */
    private static LedgerSettings composed(ClusterEntity cluster, LedgerSettings settings,
            List<LedgerSettings.Tenant> tenants) {
        LedgerSettings inForce = settings.discountRate() == null
                ? settings.withDiscountRate(cluster.discountRate.doubleValue())
                : settings;
        return inForce.withTenants(tenants);
    }

    /**
     * {@code settings} with the tenant tree {@code tree} (as settings composed by this service name it) after
     * {@code written} changed tenants that were in it, and the cluster's discount rate when they name none: the tree
     * after {@link TenantTree} wrote them, without reading it again. Null when one of {@code written} was not in
     * {@code tree} (a new tenant, or a new parent: compose from the tree then).
     */
    LedgerSettings composedAfter(String clusterId, LedgerSettings settings, List<LedgerSettings.Tenant> tree,
            List<TenantView> written) {
        // a map of the few written, not of the whole tree: one weight changed in 10,000 tenants built a map of
        // 10,000 paths per change, most of what the change allocated
        Map<String, TenantView> byPath = new HashMap<>();
        written.forEach(t -> byPath.put(t.path(), t));
        List<LedgerSettings.Tenant> tenants = new ArrayList<>(tree);
        int found = 0;
        for (int i = 0; i < tenants.size() && found < byPath.size(); i++) {
            TenantView t = byPath.get(tenants.get(i).path());
            if (t != null) {
                tenants.set(i, new LedgerSettings.Tenant(t.path(), t.weight().doubleValue(),
                        t.discountRateOverride() == null ? null : t.discountRateOverride().doubleValue(), ""));
                found++;
            }
        }
        return found < byPath.size() ? null : composed(entity(clusterId), settings, tenants);
    }

    /** The cluster's tenant tree as the ledger settings name it, root excluded, in path order. */
    private static List<LedgerSettings.Tenant> tree(String clusterId) {
        List<LedgerSettings.Tenant> tenants = new ArrayList<>();
        // values, not entities: with 10,000 tenants, loading (and at commit checking) entities cost tens of ms
        for (Object[] t : TenantEntity.getEntityManager().createQuery("SELECT t.path, t.weight, "
                + "t.discountRateOverride FROM TenantEntity t WHERE t.clusterId = ?1 ORDER BY t.path", Object[].class)
                .setParameter(1, clusterId).getResultList()) {
            if (!t[0].equals("root")) {
                tenants.add(new LedgerSettings.Tenant((String) t[0], ((BigDecimal) t[1]).doubleValue(),
                        t[2] == null ? null : ((BigDecimal) t[2]).doubleValue(), ""));
            }
        }
        return tenants;
    }

    /** Every registered cluster as the admin API shows it ({@link #view(String)}), by id. */
    public List<ClusterView> views() {
        return clusterEntities().stream().map(this::view).toList();
    }

    /**
     * The cluster as the admin API shows it, with the discount rate its ledger uses: the ledger settings' rate, or the
     * registration's when the settings name none (the ledger then uses it) or there are none yet.
     */
    public ClusterView view(String clusterId) {
        return view(entity(clusterId));
    }

    private ClusterView view(ClusterEntity cluster) {
        BigDecimal rate = cluster.discountRate;
        if (cluster.ledgerSettings != null) {
            try {
                Double configured = json.readValue(cluster.ledgerSettings, LedgerSettings.class).discountRate();
                rate = configured == null ? rate : BigDecimal.valueOf(configured);
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("stored ledger settings of " + cluster.id + " are unreadable", e);
            }
        }
        return new ClusterView(cluster.id, cluster.name, cluster.resourceManager, rate);
    }

    /**
     * Stores {@code settings} without their tenants (the tenant tree keeps those, and {@code settings} name them as it
     * stands now: {@link #composed}) in place of {@code before} (the settings in force, as this service gave them;
     * null: none yet): the document and the {@code earlier} entries that are not {@code before}'s
     * ({@link SettingsRows}); called by {@link ConfigurationChanges}, which validates, closes periods and audits first.
     * Returns the cluster's {@link #configurationVersion} as this change leaves it.
     */
    @Transactional
    String storeLedgerSettings(String clusterId, LedgerSettings before, LedgerSettings settings) {
        ClusterEntity cluster = entity(clusterId);
        List<SettingsSegment> stored = before == null || before.earlier() == null ? List.of() : before.earlier();
        List<SettingsSegment> next = settings.earlier() == null ? List.of() : settings.earlier();
        // the rows hold before's entries if this server stored them; read from the database, they may be a hand's
        // (a document with its own earlier): then every entry is written once, unchanged rows left as they are
        int shared = madeHere(clusterId, before) ? SettingsRows.sharedEntries(stored, next) : 0;
        String text = text(settings.withTenants(null).withEarlier(null));
        String entries = text(next.subList(shared, next.size()));
        String changed = SettingsRows.write(clusterId, text, shared, entries, next.size());
        String version = changed == null ? configurationVersion(clusterId) : changed;
        cluster.ledgerSettings = text;
        // what a read of them would compose, kept under the version this transaction gave them: read back from the text
        // stored (as a read parses it), with the tenants the caller composed from the tree as it stands now; the
        // entries shared with before as before holds them (read back when they were stored), the others read back
        List<SettingsSegment> earlier = new ArrayList<>(stored.subList(0, shared));
        earlier.addAll(parsed(clusterId, entries, SETTINGS_SEGMENTS));
        LedgerSettings kept = parsed(clusterId, text, LEDGER_SETTINGS).withEarlier(earlier.isEmpty() ? null : earlier);
        keep(clusterId, version, composed(cluster, kept, settings.tenants()));
        return version;
    }

    private static final TypeReference<LedgerSettings> LEDGER_SETTINGS = new TypeReference<>() {
    };

    private static final TypeReference<List<SettingsSegment>> SETTINGS_SEGMENTS = new TypeReference<>() {
    };

    private String text(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise ledger settings", e);
        }
    }

    /** The cluster's tenant tree; {@code NotFound} when there is no such cluster. */
    @Transactional
    public List<TenantView> tenants(String clusterId) {
        entity(clusterId);
        return TenantEntity.ofCluster(clusterId).stream().map(TenantView::of).toList();
    }

    /** One tenant of the cluster; {@code NotFound} when there is no such cluster or tenant. */
    public TenantView tenant(String clusterId, String path) {
        entity(clusterId);
        TenantEntity tenant = TenantEntity.byPath(clusterId, path);
        if (tenant == null) {
            throw new NotFound("cluster '" + clusterId + "' has no tenant '" + path + "'");
        }
        return TenantView.of(tenant);
    }

}
