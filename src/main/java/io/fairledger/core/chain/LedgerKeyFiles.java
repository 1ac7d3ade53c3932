package io.fairledger.core.chain;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.EdECPrivateKey;
import java.security.spec.NamedParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ed25519 ledger keys as files and as JSON: a private key as PKCS#8 PEM ({@code -----BEGIN PRIVATE KEY-----}, what
 * {@code openssl genpkey -algorithm ed25519} writes), a public key as a JWK (RFC 8037: {@code kty} {@code OKP},
 * {@code crv} {@code Ed25519}, {@code x}), and a JWK set ({@code {"keys": [...]}}, RFC 7517).
 */
public final class LedgerKeyFiles {

    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the 32 bytes of the key follow it. */
    private static final byte[] X509_PREFIX = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};
    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";

    private LedgerKeyFiles() {
    }

    /** A new Ed25519 key pair. */
    public static KeyPair generate() {
        try {
            return KeyPairGenerator.getInstance(StatementChain.ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no Ed25519 (JDK 15 or later needed)", e);
        }
    }

    /** {@code key} as PKCS#8 PEM text. */
    public static String pem(PrivateKey key) {
        return BEGIN + "\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(key.getEncoded()) + "\n"
                + END + "\n";
    }

    /**
     * The key pair of a PKCS#8 PEM Ed25519 private key; its public key derived from it.
     *
     * @throws IllegalArgumentException when {@code pem} is not that
     */
    public static KeyPair readPem(String pem) {
        int begin = pem.indexOf(BEGIN);
        int end = pem.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("not a PKCS#8 PEM private key (no " + BEGIN + " ... " + END + ")");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + BEGIN.length(), end));
            PrivateKey key = KeyFactory.getInstance(StatementChain.ALGORITHM)
                    .generatePrivate(new PKCS8EncodedKeySpec(der));
            return new KeyPair(publicKeyOf(key), key);
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 PKCS#8 private key: " + e.getMessage(), e);
        }
    }

    /**
     * The public key of {@code key}. The JDK has no call for it, but its Ed25519 generator takes the private key's 32
     * bytes from the random source it is given and derives the public key from them (RFC 8032 section 5.1.5): given
     * those bytes as its "random" source, it derives {@code key}'s public key.
     */
    private static PublicKey publicKeyOf(PrivateKey key) throws GeneralSecurityException {
        byte[] seed = ((EdECPrivateKey) key).getBytes()
                .orElseThrow(() -> new GeneralSecurityException("the private key's bytes are not readable"));
        KeyPairGenerator generator = KeyPairGenerator.getInstance(StatementChain.ALGORITHM);
        generator.initialize(NamedParameterSpec.ED25519, new SecureRandom() {
            @Override
            public void nextBytes(byte[] bytes) {
                System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, bytes.length));
            }
        });
        return generator.generateKeyPair().getPublic();
    }

    /** The 32 bytes of an Ed25519 public key, base64url without padding: a JWK's {@code x}. */
    public static String x(PublicKey key) {
        byte[] encoded = key.getEncoded();
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
    }

    /** The Ed25519 public key whose JWK {@code x} is {@code x}. */
    public static PublicKey publicKey(String x) {
        byte[] raw = Base64.getUrlDecoder().decode(x);
        if (raw.length != 32) {
            throw new IllegalArgumentException("an Ed25519 public key is 32 bytes, x holds " + raw.length);
        }
        byte[] der = Arrays.copyOf(X509_PREFIX, X509_PREFIX.length + 32);
        System.arraycopy(raw, 0, der, X509_PREFIX.length, 32);
        try {
            return KeyFactory.getInstance(StatementChain.ALGORITHM).generatePublic(new X509EncodedKeySpec(der));
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("not an Ed25519 public key: " + e.getMessage(), e);
        }
    }

    /** The JWK thumbprint of {@code key} (RFC 7638 over its RFC 8037 members), base64url: a key id by default. */
    public static String thumbprint(PublicKey key) {
        String members = "{\"crv\":\"Ed25519\",\"kty\":\"OKP\",\"x\":\"" + x(key) + "\"}";
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(
                    MessageDigest.getInstance("SHA-256").digest(members.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The JWK of {@code key} named {@code kid}: {@code kty}, {@code crv}, {@code x}, {@code kid}, {@code use}, {@code alg}. */
    public static Map<String, Object> jwk(String kid, PublicKey key) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kty", "OKP");
        out.put("crv", "Ed25519");
        out.put("x", x(key));
        out.put("kid", kid);
        out.put("use", "sig");
        out.put("alg", "EdDSA");
        return out;
    }

    /**
     * The Ed25519 keys of a JWK set's text by {@code kid}, in the set's order; keys of other types are skipped.
     *
     * @throws IllegalArgumentException when {@code json} is not a JWK set, or an Ed25519 key in it has no {@code kid}
     *                                  or no valid {@code x}
     */
    public static Map<String, PublicKey> readJwkSet(String json) {
        if (!(JsonText.parse(json) instanceof Map<?, ?> set) || !(set.get("keys") instanceof List<?> keys)) {
            throw new IllegalArgumentException("not a JWK set: no \"keys\" array");
        }
        Map<String, PublicKey> out = new LinkedHashMap<>();
        for (Object k : keys) {
            if (!(k instanceof Map<?, ?> jwk) || !"OKP".equals(jwk.get("kty")) || !"Ed25519".equals(jwk.get("crv"))) {
                continue;
            }
            if (!(jwk.get("kid") instanceof String kid) || !(jwk.get("x") instanceof String x)) {
                throw new IllegalArgumentException("an Ed25519 key of the JWK set without a kid or an x");
            }
            out.put(kid, publicKey(x));
        }
        return out;
    }
}
