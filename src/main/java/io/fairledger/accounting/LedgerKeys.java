package io.fairledger.accounting;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.runtime.Startup;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.chain.ChainLink;
import io.fairledger.core.chain.LedgerKeyFiles;
import io.fairledger.core.chain.StatementChain;

/**
 * The ledger key that signs closed statements ({@code fairledger.ledger-key.*}, docs/billing.md, "Verifying closed
 * statements"), read once at start: the server does not start without one, unless {@code ephemeral} lets it make one
 * (tests, dev mode, trials). The public keys it publishes are that key's and those used before a rotation.
 */
@Startup
@ApplicationScoped
public class LedgerKeys {

    private static final Logger LOG = Logger.getLogger(LedgerKeys.class);
    /** The setting without which a production server does not start. */
    static final String FILE_SETTING = "fairledger.ledger-key.file (FAIRLEDGER_LEDGER_KEY_FILE)";

    @Inject
    FairledgerConfig config;

    private KeyPair key;
    private String keyId;
    private Map<String, PublicKey> published;

    @PostConstruct
    void load() {
        FairledgerConfig.LedgerKey settings = config.ledgerKey();
        if (settings.file().isPresent()) {
            Path file = settings.file().get();
            try {
                key = LedgerKeyFiles.readPem(Files.readString(file));
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalStateException(FILE_SETTING + " is " + file + ", which is not a readable Ed25519 "
                        + "private key in PKCS#8 PEM: " + e.getMessage(), e);
            }
        } else if (settings.ephemeral()) {
            key = LedgerKeyFiles.generate();
            LOG.warn("No ledger key configured: closed statements are signed with a key made now, which dies with this "
                    + "process (fairledger.ledger-key.ephemeral=true). Their signatures cannot be checked after a "
                    + "restart; set " + FILE_SETTING + " for real books (docs/billing.md).");
        } else {
            throw new IllegalStateException("no ledger key: set " + FILE_SETTING + " to an Ed25519 private key in "
                    + "PKCS#8 PEM (`openssl genpkey -algorithm ed25519 -out ledger-key.pem`), which signs every "
                    + "closed statement (docs/billing.md, \"Verifying closed statements\")");
        }
        keyId = settings.keyId().orElse(LedgerKeyFiles.thumbprint(key.getPublic()));
        Map<String, PublicKey> keys = new LinkedHashMap<>();
        keys.put(keyId, key.getPublic());
        settings.previousPublicKeys().ifPresent(file -> previous(file).forEach((kid, old) -> {
            if (keys.containsKey(kid) && !keys.get(kid).equals(old)) {
                throw new IllegalStateException("fairledger.ledger-key.previous-public-keys " + file + " holds another "
                        + "key under the id " + kid + " of a key already published; give each key its own id");
            }
            keys.putIfAbsent(kid, old);
        }));
        published = Collections.unmodifiableMap(keys);
        LOG.infof("Ledger key %s signs closed statements; %d public key(s) published", keyId, published.size());
    }

    private static Map<String, PublicKey> previous(Path file) {
        try {
            return LedgerKeyFiles.readJwkSet(Files.readString(file));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalStateException("fairledger.ledger-key.previous-public-keys is " + file + ", which is not "
                    + "a readable JWK set: " + e.getMessage(), e);
        }
    }

    /** The link of {@code statement} (its JSON, as {@code JsonText} reads it) at {@code sequence} after {@code previous}. */
    ChainLink link(long sequence, String previous, Map<String, Object> statement) {
        return StatementChain.link(sequence, previous, statement, key.getPrivate(), keyId);
    }

    /** Every published public key by key id: the signing key's first, then those used before. */
    public Map<String, PublicKey> publicKeys() {
        return published;
    }

    /** The published keys as a JWK set (RFC 7517, each key as RFC 8037 writes an Ed25519 key). */
    public Map<String, Object> jwkSet() {
        List<Map<String, Object>> keys = new ArrayList<>();
        published.forEach((kid, k) -> keys.add(LedgerKeyFiles.jwk(kid, k)));
        return Map.of("keys", keys);
    }
}
