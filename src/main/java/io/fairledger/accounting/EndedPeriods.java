package io.fairledger.accounting;

import java.util.List;

import io.fairledger.core.chargeback.Statement;

/**
 * The statements of the periods a cluster's live ledger has ended, under the settings in force, as of its latest fact:
 * what {@link StatementService} lists as provisional until a period is closed. Declared here and implemented by the
 * live ledgers, which keep them (live depends on accounting, not the reverse).
 */
public interface EndedPeriods {

    /**
     * Every period the live ledger of {@code clusterId} has ended, in order.
     *
     * @throws io.fairledger.errors.NotReady while the live ledger is being built
     */
    List<Statement> ended(String clusterId);
}
