/**
 * Tamper-evident closed statements (docs/billing.md, "Verifying closed statements"): the JSON Canonicalization Scheme
 * of RFC 8785 ({@link Jcs}, over the plain JSON values of {@link JsonText}), the hash chain of a cluster's closed
 * statements signed with Ed25519 ({@link StatementChain}), the ledger keys as PEM and JWK ({@link LedgerKeyFiles}) and
 * the one check of a statements download against a JWK set ({@link ChainVerifier}), used by the server and by
 * {@code fairledger verify}.
 */
package io.fairledger.core.chain;
