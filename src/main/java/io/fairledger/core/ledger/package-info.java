/**
 * The exact event-time LTRF ledger of one cluster (Tang et al., 2014): the tenant tree, each node's rates and
 * integrals, time quanta, and its state as bytes for checkpoints.
 */
package io.fairledger.core.ledger;
