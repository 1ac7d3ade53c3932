/**
 * The one deterministic replay from events and configuration to ledger and statements, in canonical event order, with
 * fixed-length periods and checkpoints of its whole state.
 */
package io.fairledger.core.replay;
