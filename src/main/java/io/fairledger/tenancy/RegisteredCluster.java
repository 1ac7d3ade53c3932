package io.fairledger.tenancy;

/**
 * A registered cluster as the other packages see it: an immutable copy of what they need of its row, so that no
 * entity (and no unsaved change to one) leaves this package.
 */
public record RegisteredCluster(String id, String name, ResourceManagerKind resourceManager,
        boolean hasLedgerSettings) {
}
