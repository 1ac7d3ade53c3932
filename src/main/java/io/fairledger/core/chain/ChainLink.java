package io.fairledger.core.chain;

/**
 * A closed statement's place in its cluster's chain, the {@code chain} member of the statement's JSON
 * (docs/billing.md, "Verifying closed statements").
 *
 * @param sequence  1 for the cluster's first chained period, then one more per closed period
 * @param previous  the hash of the period before, or for the first the genesis value (32 zero bytes), in lowercase
 *                  hex
 * @param hash      SHA-256 of {@code previous}'s 32 bytes followed by the RFC 8785 canonical form of the statement
 *                  without its {@code chain} member, in lowercase hex
 * @param signature the Ed25519 signature of the 32 bytes of {@code hash}, base64url without padding
 * @param keyId     the {@code kid} of the ledger key that signed, as {@code GET /api/v1/ledger-keys} lists it
 */
public record ChainLink(long sequence, String previous, String hash, String signature, String keyId) {
}
