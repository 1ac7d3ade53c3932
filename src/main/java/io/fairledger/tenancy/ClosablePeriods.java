package io.fairledger.tenancy;

import java.time.Instant;
import java.util.Optional;

/**
 * Closes the periods a configuration change must not rewrite. Declared here, where configuration changes are made,
 * and implemented by the accounting package, which owns the statements: tenancy depends on no accounting class.
 */
public interface ClosablePeriods {

    /**
     * Closes every period that can be closed now and returns the instant from which a change takes effect: just after
     * the latest stored fact, never before the start of the earliest period not closed; null when the cluster has no
     * ledger settings yet ({@code inForce}, its settings in force as {@link TenancyService#ledgerSettings} gives them,
     * null).
     */
    Instant closeBeforeChange(String clusterId, LedgerSettings inForce);

    /** The oldest instant whose facts are all kept, when retention has dropped facts of the cluster before it. */
    Optional<Instant> replayableFrom(String clusterId);
}
