package io.fairledger.accounting;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import org.eclipse.microprofile.config.Config;
import org.jboss.logging.Logger;

import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.TenancyService;

/**
 * One writer per cluster (docs/operations.md, "Replicas: who writes"): the replica holding a cluster's PostgreSQL
 * advisory lock closes its periods and stores its live ledger's checkpoints; the others keep their own live ledger and
 * serve reads and grants from it. The locks are held on a connection of this class's own, outside the pool: a
 * session-level lock stays with its session, and a pooled connection handed to another caller would carry it along,
 * or the pool would close it and lose it unnoticed. Every {@code fairledger.closing.writer-check} the replica checks
 * that connection (lost with it: every lock) and tries the lock of each cluster it does not write; the lock goes with
 * the writer's session, which PostgreSQL ends as soon as a killed replica's connection closes, so another replica
 * takes over at its next check. Gauge {@value #GAUGE}: 1 on the cluster's writer.
 */
@ApplicationScoped
public class ClusterWriter {

    private static final Logger LOG = Logger.getLogger(ClusterWriter.class);

    /** Gauge per cluster: 1 while this replica is the cluster's writer, else 0. */
    public static final String GAUGE = "fairledger.cluster.writer";
    /** The first key of the two-key advisory locks of writers (the second is the cluster id's hash). */
    private static final String LOCK_SPACE = "fairledger.writer";

    @Inject
    TenancyService tenancy;

    @Inject
    MeterRegistry registry;

    @Inject
    Config config;

    private final Set<String> held = ConcurrentHashMap.newKeySet();
    /** Clusters this replica became the writer of and whose closing has not run since ({@link #tookOver}). */
    private final Set<String> gained = ConcurrentHashMap.newKeySet();
    private final Map<String, Gauge> gauges = new ConcurrentHashMap<>();
    private Connection connection;

    /**
     * Whether this replica writes {@code clusterId}: from memory when it holds the lock, else it tries the lock once
     * (one round trip), so a replica writes a cluster registered since the last check at once.
     */
    public boolean writes(String clusterId) {
        return held.contains(clusterId) || acquire(clusterId);
    }

    /**
     * True once after this replica became the writer of {@code clusterId}: what was due while no replica wrote it is
     * closed at once, not at its next fact.
     */
    public boolean tookOver(String clusterId) {
        return gained.remove(clusterId);
    }

    /** Checks the locks' connection and tries the lock of every registered cluster this replica does not write. */
    @Scheduled(every = "${fairledger.closing.writer-check}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        synchronized (this) {
            try {
                if (connection != null && !connection.isValid(5)) {
                    lost();
                }
            } catch (SQLException e) {
                lost();
            }
        }
        for (RegisteredCluster cluster : tenancy.clusters()) {
            String id = cluster.id();
            gauges.computeIfAbsent(id, k -> Gauge.builder(GAUGE, () -> held.contains(k) ? 1 : 0)
                    .description("1 on the replica that closes the cluster's periods and stores its checkpoints")
                    .tag(MetricNames.CLUSTER, k).register(registry));
            writes(id);
        }
    }

    private synchronized boolean acquire(String clusterId) {
        if (held.contains(clusterId)) {
            return true;
        }
        try {
            if (connection == null) {
                connection = open();
            }
            if (tryLock(clusterId)) {
                held.add(clusterId);
                gained.add(clusterId);
                LOG.infof("cluster %s: this replica is its writer now (closes its periods, stores its checkpoints)",
                        clusterId);
                return true;
            }
            return false;
        } catch (SQLException e) {
            LOG.warnf("cluster writer: cannot try the lock of cluster %s, tried again at the next check: %s",
                    clusterId, e.getMessage());
            lost();
            return false;
        }
    }

    private boolean tryLock(String clusterId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT pg_try_advisory_lock(hashtext(?), hashtext(?))")) {
            ps.setString(1, LOCK_SPACE);
            ps.setString(2, clusterId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The locks' connection failed or was never opened: this replica writes nothing until it holds them again. */
    private void lost() {
        if (!held.isEmpty()) {
            LOG.warnf("cluster writer: the lock connection was lost, this replica no longer writes %s", held);
        }
        held.clear();
        gained.clear();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                LOG.debugf("cluster writer: closing a lost lock connection: %s", e.getMessage());
            }
            connection = null;
        }
    }

    private Connection open() throws SQLException {
        Properties p = new Properties();
        config.getOptionalValue("quarkus.datasource.username", String.class).ifPresent(u -> p.setProperty("user", u));
        config.getOptionalValue("quarkus.datasource.password", String.class)
                .ifPresent(s -> p.setProperty("password", s));
        p.setProperty("ApplicationName", "fairledger-writer");
        // a replica cut off from PostgreSQL by the network must lose its locks: keepalives end the dead session
        p.setProperty("tcpKeepAlive", "true");
        return DriverManager.getConnection(config.getValue("quarkus.datasource.jdbc.url", String.class), p);
    }

    /** Gives the locks back on a clean stop (by closing their session), so another replica takes over at once. */
    @PreDestroy
    synchronized void release() {
        held.clear();
        lost();
    }
}
