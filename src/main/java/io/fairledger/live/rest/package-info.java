/**
 * The live ledger over HTTP: the grants route that resource managers poll, with its encoded and cached bodies, and the
 * views of a cluster's fairness and of each tenant's numbers, grant and statements.
 */
package io.fairledger.live.rest;
