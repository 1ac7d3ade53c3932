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
     * The periods the live ledger of {@code clusterId} has ended, in order: at least every one not stored closed yet
     * (it drops the others); none while it has not been built yet (a cluster just registered, or right after start-up,
     * for a few seconds).
     */
    List<Statement> ended(String clusterId);
}
