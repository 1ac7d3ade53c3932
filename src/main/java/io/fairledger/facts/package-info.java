/**
 * The facts resource managers reported, as stored in {@code ledger_fact} (month partitions) and its key table: their
 * type and codec, the one duplicate rule, the one writer, the one reader and the retention floors.
 */
package io.fairledger.facts;
