package io.fairledger.tenancy;

import java.time.Duration;

/**
 * Where the books of this replica are read from, asked after a configuration change so that its answer comes only
 * once every read on this replica sees the change (read-your-writes). Declared here and implemented by
 * {@code live.LiveLedgers}, so that tenancy does not depend on the live ledgers (docs/architecture.md).
 */
public interface ServedConfiguration {

    /**
     * Waits until this replica's reads of {@code clusterId} (grants, tenant views, statements) serve every
     * configuration change committed before the call, at most {@code bound}; whether they do.
     */
    boolean awaitServed(String clusterId, Duration bound) throws InterruptedException;
}
