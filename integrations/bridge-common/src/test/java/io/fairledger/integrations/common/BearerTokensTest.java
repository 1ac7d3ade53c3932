package io.fairledger.integrations.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BearerTokensTest {

    private static BearerToken from(Map<String, String> settings, Map<String, String> env) {
        return BearerTokens.from("fairledger.grants.", settings::get, env);
    }

    @Test
    void noSettingsNoToken() {
        assertThat(from(Map.of(), Map.of(BearerTokens.SECRET_ENV, "s"))).isNull();
    }

    @Test
    void aClientIdWithAnIssuerAndTheSecretFromTheEnvironmentIsAKeycloakClient() {
        assertThat(from(Map.of("client-id", "yarn-bridge", "issuer", "http://kc/realms/fairledger/"),
                Map.of(BearerTokens.SECRET_ENV, "s"))).isInstanceOf(ClientCredentialsToken.class);
    }

    @Test
    void missingOrContradictorySettingsAreRefusedByName() {
        assertThatThrownBy(() -> from(Map.of("client-id", "c", "issuer", "http://kc"), Map.of()))
                .hasMessageContaining("fairledger.grants.client-secret-file")
                .hasMessageContaining(BearerTokens.SECRET_ENV);
        assertThatThrownBy(() -> from(Map.of("client-id", "c"), Map.of(BearerTokens.SECRET_ENV, "s")))
                .hasMessageContaining("fairledger.grants.issuer");
        assertThatThrownBy(() -> from(Map.of("issuer", "http://kc"), Map.of()))
                .hasMessage("fairledger.grants.issuer is set without fairledger.grants.client-id");
        assertThatThrownBy(() -> from(Map.of("client-id", "c", "issuer", "http://kc", "token-file", "/t"),
                Map.of(BearerTokens.SECRET_ENV, "s"))).hasMessageContaining("not both");
    }

    @Test
    void aTokenFileIsReadAtEveryRequestAndItsContentIsInNoMessage(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("token");
        BearerToken token = from(Map.of("token-file", file.toString()), Map.of());
        assertThatThrownBy(token::current).hasMessageContaining("does not exist");
        Files.writeString(file, "abc\n");
        assertThat(token.current()).isEqualTo("abc");
        Files.writeString(file, "def");
        assertThat(token.current()).isEqualTo("def");
        Files.writeString(file, " \n");
        assertThatThrownBy(token::current).hasMessageContaining("is empty");
    }
}
