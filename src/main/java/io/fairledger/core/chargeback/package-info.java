/**
 * Chargeback: a closed period's accounts turned into a priced statement per tenant, and the rule that carries late
 * events into adjustment lines of an open period.
 */
package io.fairledger.core.chargeback;
