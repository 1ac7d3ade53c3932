package io.fairledger.tenancy;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import io.quarkus.runtime.StartupEvent;
import org.jboss.logging.Logger;

import io.fairledger.errors.Invalid;

/**
 * Reports, once at start, every member of stored ledger settings out of the ranges of {@link SettingsLimits}: an older
 * version stored them unchecked. They are kept and used as they are (refusing them would stop the cluster's books); an
 * admin repairs them with a PUT of valid settings, which is always accepted. A cluster they keep from being replayed
 * is quarantined by the live ledgers.
 */
@ApplicationScoped
public class StoredSettingsCheck {

    private static final Logger LOG = Logger.getLogger(StoredSettingsCheck.class);

    @Inject
    TenancyService tenancy;

    @Transactional
    void report(@Observes StartupEvent start) {
        try {
            for (RegisteredCluster cluster : tenancy.clusters()) {
                if (cluster.hasLedgerSettings()) {
                    report(cluster.id());
                }
            }
        } catch (RuntimeException e) {
            LOG.warnf("stored ledger settings not checked at start: %s", e.toString());
        }
    }

    private void report(String clusterId) {
        try {
            for (Invalid.Field field : SettingsLimits.problems(tenancy.ledgerSettings(clusterId), "")) {
                LOG.warnf("cluster %s: stored ledger settings out of range, kept as they are until an admin PUTs valid "
                        + "ones: %s %s", clusterId, field.field(), field.message());
            }
        } catch (IllegalStateException e) {
            LOG.warnf("cluster %s: stored ledger settings unreadable: %s", clusterId, e.getMessage());
        }
    }
}
