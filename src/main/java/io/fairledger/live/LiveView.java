package io.fairledger.live;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.grant.GrantLevel;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ResourceVector;

/**
 * What one cluster's live ledger says as of its latest event, immutable, so any number of readers share it without
 * locks: every account (root first), fairness over the open period's leaf tenants, the tree grant for the next
 * interval, and the open period's statement to date.
 *
 * @param cluster
 *            the cluster
 * @param asOf
 *            the instant of the latest applied event (or of the registration)
 * @param facts
 *            facts applied
 * @param grantIntervalMs
 *            the interval the grants hold for
 * @param capacity
 *            the cluster's capacity
 * @param accounts
 *            every node's account at {@code asOf}, root first
 * @param fairness
 *            rho, Psi, Omega, Jain's index and equality over the leaves, open period
 * @param grants
 *            the tree grant, parents before children
 * @param openStatement
 *            the open period's statement to date
 * @param ended
 *            the statements of the periods the ledger has ended and the closer had not stored when it last looked,
 *            under the settings in force (the provisional ones are those not closed yet); every ended period in
 *            {@code fairledger account}, which stores none ({@link LiveLedger#release})
 * @param currency
 *            the ISO 4217 code of its money (ledger settings' {@code chargeback.currency})
 */
public record LiveView(String cluster, Instant asOf, long facts, long grantIntervalMs, ResourceVector capacity,
        List<TenantAccount> accounts, FairnessReport fairness, List<GrantLevel> grants,
        StatementView openStatement, List<Statement> ended, String currency) {

    public LiveView {
        accounts = List.copyOf(accounts);
        ended = List.copyOf(ended);
        grants = List.copyOf(grants);
    }

    /** The leaf tenants' accounts (the ones that run tasks and are billed), in path order. */
    public List<TenantAccount> leaves() {
        return Chargeback.leaves(accounts);
    }

    /** Every tenant but the root (inner ones too), in path order. */
    public List<TenantAccount> tenants() {
        return accounts.stream().filter(a -> !a.path().isRoot())
                .sorted(java.util.Comparator.comparing(TenantAccount::path)).toList();
    }

    /** The account of {@code tenant}, if the ledger knows it. */
    public Optional<TenantAccount> account(String tenant) {
        return accounts.stream().filter(a -> a.path().toString().equals(tenant)).findFirst();
    }

    /** The grant level in which {@code tenant} competes with its siblings, if any. */
    public Optional<GrantLevel> levelOf(String tenant) {
        return grants.stream().filter(l -> l.grants().grants().stream().anyMatch(g -> g.id().equals(tenant)))
                .findFirst();
    }

    /** Every node's grant per resource type (millicores, MB, GPUs), by tenant. */
    public Map<String, double[]> grantByTenant() {
        Map<String, double[]> out = new HashMap<>();
        for (GrantLevel level : grants) {
            level.grants().grants().forEach(g -> out.put(g.id(), g.allocation()));
        }
        return out;
    }

    /** The open-period statement line of {@code tenant}, if it is billed. */
    public Optional<StatementView.Line> line(String tenant) {
        return openStatement.lines().stream().filter(l -> l.tenant().equals(tenant)).findFirst();
    }
}
