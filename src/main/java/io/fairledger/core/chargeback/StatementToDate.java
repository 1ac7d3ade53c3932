package io.fairledger.core.chargeback;

import java.util.List;
import java.util.Optional;

import io.fairledger.core.ledger.TenantAccount;

/**
 * The open period's statement to date ({@link Chargeback}, docs/domain.md section 8), as of the instant its accounts
 * were taken: the whole statement, or one tenant's line without pricing every other tenant where the charge model
 * allows (a dashboard of a few tenants out of thousands). Under {@code USAGE} a leaf's charge is its own usage priced,
 * and an inner node's line is never charged, so such a line is the one the whole statement holds; under
 * {@code GROUP_BUY} a leaf's charge is a part of a cost split over every leaf, so only the whole statement says it.
 *
 * @param clusterId
 *            the cluster
 * @param period
 *            the open period up to now: its start, and the instant of the accounts (at least a millisecond later)
 * @param accounts
 *            every node's account, root included, as the ledger returned them
 * @param prices
 *            the chargeback settings in force
 * @param part
 *            how much of its whole period the open period is ({@link Chargeback#statement})
 */
public record StatementToDate(String clusterId, Period period, List<TenantAccount> accounts,
        ChargebackConfig prices, Proration part) {

    /** The whole statement: every tenant's line, priced. */
    public Statement whole() {
        return Chargeback.statement(clusterId, period, accounts, prices, part);
    }

    /**
     * The line of {@code account}, one of {@link #accounts} and not the root, that {@link #whole} holds, when it can be
     * computed on its own; empty when only the whole statement says it. {@code inner} says whether it has children.
     */
    public Optional<TenantStatement> line(TenantAccount account, boolean inner) {
        return Chargeback.lineAlone(account, inner, prices);
    }
}
