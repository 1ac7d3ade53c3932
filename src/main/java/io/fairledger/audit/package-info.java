/**
 * The audit trail of administrative changes (table {@code audit_entry}), written in the caller's transaction so a
 * change and its entry commit together.
 */
package io.fairledger.audit;
