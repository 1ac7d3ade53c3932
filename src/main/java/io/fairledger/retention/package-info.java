/**
 * The scheduled pass that creates {@code ledger_fact}'s month partitions ahead of time and drops the months nothing
 * needs.
 */
package io.fairledger.retention;
