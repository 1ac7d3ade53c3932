package io.fairledger.core.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.KeyPair;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fairledger.core.chain.ChainVerifier.Reason;

/**
 * The chain of closed statements and its check: a good chain holds; a changed digit, a wrong or unknown key, a
 * reordered or missing period and a chain member dropped are each named with their period and reason.
 */
class StatementChainTest {

    private static final KeyPair KEY = LedgerKeyFiles.generate();
    private static final String KID = LedgerKeyFiles.thumbprint(KEY.getPublic());

    @Test
    void aGoodChainHolds() {
        List<Object> download = download(3);
        download.add(0, statement("p-old", "closed", "1.5"));
        download.add(statement("p-open", "provisional", "0.25"));
        ChainVerifier.Result result = ChainVerifier.verify(download, keys());
        assertThat(result.broken()).isEmpty();
        assertThat(result.chained()).isEqualTo(3);
        assertThat(result.unchained()).as("closed before the chain").isEqualTo(1);
        assertThat(chain(download.get(1)).get("previous")).isEqualTo(StatementChain.GENESIS);
    }

    @Test
    void oneChangedDigitIsNamedByItsHash() {
        List<Object> download = download(3);
        line(download.get(1)).put("charge", 12.35);
        assertThat(ChainVerifier.verify(download, keys()).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p1");
            assertThat(b.reason()).isEqualTo(Reason.HASH);
        });
    }

    @Test
    void aRehashedChangeIsNamedByItsSignatureAndTheNextLink() {
        List<Object> download = download(3);
        line(download.get(1)).put("charge", 12.35);
        chain(download.get(1)).put("hash", HexFormat.of().formatHex(StatementChain.hash(
                (String) chain(download.get(1)).get("previous"), cast(download.get(1)))));
        assertThat(ChainVerifier.verify(download, keys()).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p1");
            assertThat(b.reason()).isEqualTo(Reason.SIGNATURE);
        });
    }

    @Test
    void anotherKeyUnderTheSameIdIsASignatureBreak() {
        Map<String, PublicKey> wrong = Map.of(KID, LedgerKeyFiles.generate().getPublic());
        assertThat(ChainVerifier.verify(download(2), wrong).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p0");
            assertThat(b.reason()).isEqualTo(Reason.SIGNATURE);
        });
        assertThat(ChainVerifier.verify(download(2), Map.of()).broken().orElseThrow().detail())
                .contains("not in the key set");
    }

    @Test
    void aReorderedSetBreaksTheLink() {
        List<Object> download = download(3);
        download.add(1, download.remove(2));
        assertThat(ChainVerifier.verify(download, keys()).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p2");
            assertThat(b.reason()).isEqualTo(Reason.LINK);
            assertThat(b.detail()).contains("sequence 3, expected 2");
        });
    }

    @Test
    void aMissingPeriodBreaksTheLinkOfTheNext() {
        List<Object> download = download(4);
        download.remove(2);
        assertThat(ChainVerifier.verify(download, keys()).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p3");
            assertThat(b.reason()).isEqualTo(Reason.LINK);
        });
        List<Object> withoutFirst = download(2);
        withoutFirst.remove(0);
        assertThat(ChainVerifier.verify(withoutFirst, keys()).broken().orElseThrow().period()).isEqualTo("p1");
    }

    @Test
    void aChainMemberDroppedAfterTheFirstChainedPeriodIsALinkBreak() {
        List<Object> download = download(3);
        cast(download.get(2)).remove(StatementChain.MEMBER);
        assertThat(ChainVerifier.verify(download, keys()).broken()).hasValueSatisfying(b -> {
            assertThat(b.period()).isEqualTo("p2");
            assertThat(b.reason()).isEqualTo(Reason.LINK);
        });
    }

    @Test
    void thePemOfRfc8037ExampleGivesItsPublicKeyAndThumbprint() {
        // RFC 8037 appendix A.1 (d and x) and A.3 (the thumbprint)
        byte[] d = Base64.getUrlDecoder().decode("nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A");
        byte[] der = HexFormat.of().parseHex("302e020100300506032b657004220420" + HexFormat.of().formatHex(d));
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getEncoder().encodeToString(der)
                + "\n-----END PRIVATE KEY-----\n";
        KeyPair pair = LedgerKeyFiles.readPem(pem);
        assertThat(LedgerKeyFiles.x(pair.getPublic())).isEqualTo("11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo");
        assertThat(LedgerKeyFiles.thumbprint(pair.getPublic()))
                .isEqualTo("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
        assertThat(LedgerKeyFiles.pem(pair.getPrivate())).isEqualTo(pem);
    }

    @Test
    void aJwkSetReadsBackItsKeys() {
        String set = "{\"keys\":[{\"kty\":\"RSA\",\"n\":\"x\",\"e\":\"AQAB\"},{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\""
                + LedgerKeyFiles.x(KEY.getPublic()) + "\",\"kid\":\"" + KID + "\"}]}";
        assertThat(LedgerKeyFiles.readJwkSet(set)).containsOnlyKeys(KID);
        assertThat(ChainVerifier.verify(download(2), LedgerKeyFiles.readJwkSet(set)).broken()).isEmpty();
    }

    /** {@code n} closed periods p0, p1, ... chained from the genesis value, as parsed from a download. */
    private static List<Object> download(int n) {
        List<Object> out = new ArrayList<>();
        String previous = StatementChain.GENESIS;
        for (int i = 0; i < n; i++) {
            Map<String, Object> s = statement("p" + i, "closed", "12.3" + i);
            ChainLink link = StatementChain.link(i + 1, previous, s, KEY.getPrivate(), KID);
            Map<String, Object> chain = new LinkedHashMap<>();
            chain.put("sequence", (double) link.sequence());
            chain.put("previous", link.previous());
            chain.put("hash", link.hash());
            chain.put("signature", link.signature());
            chain.put("keyId", link.keyId());
            s.put(StatementChain.MEMBER, chain);
            out.add(s);
            previous = link.hash();
        }
        return out;
    }

    private static Map<String, Object> statement(String period, String state, String charge) {
        return cast(JsonText.parse("{\"cluster\":\"c\",\"period\":\"" + period + "\",\"state\":\"" + state
                + "\",\"totalCharge\":" + charge + ",\"lines\":[{\"tenant\":\"root.a\",\"charge\":" + charge + "}]}"));
    }

    private static Map<String, PublicKey> keys() {
        return Map.of(KID, KEY.getPublic());
    }

    private static Map<String, Object> chain(Object statement) {
        return cast(cast(statement).get(StatementChain.MEMBER));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> line(Object statement) {
        return cast(((List<Object>) cast(statement).get("lines")).get(0));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cast(Object value) {
        return (Map<String, Object>) value;
    }
}
