package io.fairledger.core.chain;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one rule of a cluster's chain of closed statements: the statement without its {@code chain} member in RFC 8785
 * canonical form ({@link Jcs}), hashed with SHA-256 after the previous period's hash (for the first chained period
 * the genesis value, 32 zero bytes), and the 32 bytes of that hash signed with Ed25519 ({@link ChainLink}).
 */
public final class StatementChain {

    /** The member of a statement's JSON that holds its {@link ChainLink}. */
    public static final String MEMBER = "chain";
    /** What the first chained period of a cluster links to: 32 zero bytes. */
    public static final String GENESIS = HexFormat.of().formatHex(new byte[32]);
    /** The JDK's name of the signature algorithm (JDK 15 and later). */
    public static final String ALGORITHM = "Ed25519";

    private StatementChain() {
    }

    /**
     * The link of {@code statement} (a JSON object as {@link JsonText} reads it; its {@code chain} member, if any, is
     * left out of the hash) at {@code sequence}, after the period whose hash is {@code previous} (lowercase hex), signed
     * with {@code key} named {@code keyId}.
     */
    public static ChainLink link(long sequence, String previous, Map<String, Object> statement, PrivateKey key,
            String keyId) {
        byte[] hash = hash(previous, statement);
        try {
            Signature signer = Signature.getInstance(ALGORITHM);
            signer.initSign(key);
            signer.update(hash);
            return new ChainLink(sequence, previous, HexFormat.of().formatHex(hash),
                    Base64.getUrlEncoder().withoutPadding().encodeToString(signer.sign()), keyId);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign with the ledger key " + keyId, e);
        }
    }

    /**
     * SHA-256 of the 32 bytes of {@code previous} (lowercase hex) followed by the canonical UTF-8 bytes of
     * {@code statement} without its {@code chain} member.
     *
     * @throws IllegalArgumentException when {@code previous} is not 32 bytes in hex
     */
    public static byte[] hash(String previous, Map<String, Object> statement) {
        byte[] before = HexFormat.of().parseHex(previous);
        if (before.length != 32) {
            throw new IllegalArgumentException("a previous hash of " + before.length + " bytes, not 32");
        }
        Map<String, Object> signed = new LinkedHashMap<>(statement);
        signed.remove(MEMBER);
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            sha256.update(before);
            return sha256.digest(Jcs.canonicalise(signed));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** True when {@code signature} (base64url) is {@code key}'s Ed25519 signature of the bytes of {@code hash} (hex). */
    public static boolean signed(String hash, String signature, PublicKey key) {
        try {
            Signature verifier = Signature.getInstance(ALGORITHM);
            verifier.initVerify(key);
            verifier.update(HexFormat.of().parseHex(hash));
            return verifier.verify(Base64.getUrlDecoder().decode(signature));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            return false;
        }
    }
}
