/**
 * Every cluster's live ledger, kept up to date from the stored facts on each tick: its immutable views, checkpoints
 * (table {@code ledger_checkpoint}) and bounded rebuilds from them, gauges, serving readiness and giving heap back
 * after a burst.
 */
package io.fairledger.live;
