/**
 * Reports over the books: usage, entitlement, fairness degree and charges over any window, aggregated by tenant,
 * parent or cluster (the usage endpoint and {@code fairledger report}). Built on the statements
 * of {@link io.fairledger.accounting.StatementService}, so a report never disagrees with a statement.
 */
package io.fairledger.reports;
