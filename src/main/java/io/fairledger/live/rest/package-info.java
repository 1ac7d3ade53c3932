/**
 * The live ledger over HTTP: the grants route that resource managers poll, with its encoded and cached bodies, and the
 * tenant and cluster views.
 */
package io.fairledger.live.rest;
