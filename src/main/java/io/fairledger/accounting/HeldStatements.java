package io.fairledger.accounting;

import java.util.List;
import java.util.Optional;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.tenancy.LedgerSettings;

/** What a ledger holding every fact stored up to the horizon has stated (the server's live ledger, in memory). */
@FunctionalInterface
public interface HeldStatements {

    /** A ledger that holds nothing. */
    HeldStatements NONE = (settings, firstEnd, through) -> Optional.empty();

    /**
     * The statements under {@code settings} of every period ending in {@code [firstEnd, through]} as the ledger
     * stated them, when it holds them all; empty otherwise. The closer asks only when no fact stored after the
     * position it closes at is at or before {@code through}: then they are what the facts stored up to that
     * position state.
     */
    Optional<List<Statement>> held(LedgerSettings settings, long firstEnd, long through);
}
