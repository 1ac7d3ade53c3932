package io.fairledger.core.replay;

import java.util.List;
import java.util.Map;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.Outcome;
import io.fairledger.core.ledger.TenantAccount;

/**
 * What a replay produced.
 *
 * @param ledger
 *            the ledger after the last event, clock at {@code until}; the caller may keep feeding it
 * @param statements
 *            one per closed period, in order
 * @param fairness
 *            fairness of the leaf tenants over each closed period, parallel to {@code statements}
 * @param openAccounts
 *            every node's account at {@code until}, within the open period
 * @param outcomes
 *            how many events ended with each outcome
 */
public record ReplayResult(ClusterLedger ledger, List<Statement> statements, List<FairnessReport> fairness,
        List<TenantAccount> openAccounts, Map<Outcome, Long> outcomes) {

    public ReplayResult {
        statements = List.copyOf(statements);
        fairness = List.copyOf(fairness);
        openAccounts = List.copyOf(openAccounts);
        outcomes = Map.copyOf(outcomes);
    }
}
