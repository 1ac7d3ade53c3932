/**
 * A cluster's books from its stored facts: the feed of facts into the core's replay, the one rule that closes periods,
 * the closed statements it owns (tables {@code closed_statement} and {@code closed_statement_line}), provisional
 * statements from the live ledger, and what-ifs.
 */
package io.fairledger.accounting;
