package io.fairledger.integrations.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fairledger.integrations.common.TokenEndpointStub.Answer;

class ClientCredentialsTokenTest {

    private static final String SECRET = "S3cret-Value!";
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final AtomicInteger issued = new AtomicInteger();

    private Answer token(long expiresIn) {
        return new Answer(200, "{\"access_token\":\"t" + issued.incrementAndGet() + "\",\"token_type\":\"Bearer\","
                + "\"expires_in\":" + expiresIn + "}");
    }

    private ClientCredentialsToken client(TokenEndpointStub stub, ClientCredentialsToken.Secret secret) {
        return new ClientCredentialsToken(HttpClient.newHttpClient(), stub.uri("/token"), "yarn-bridge", secret,
                Duration.ofSeconds(1), Duration.ofSeconds(60), now::get);
    }

    @Test
    void aTokenIsKeptUntil80PercentOfItsLifeAndRenewedBeforeItExpires() throws Exception {
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token", r -> token(300)))) {
            ClientCredentialsToken tokens = client(stub, () -> SECRET);
            assertThat(tokens.current()).isEqualTo("t1");
            assertThat(stub.received.get(0).form()).containsEntry("grant_type", "client_credentials")
                    .containsEntry("client_id", "yarn-bridge").containsEntry("client_secret", SECRET);
            now.addAndGet(239_999);
            assertThat(tokens.current()).isEqualTo("t1");
            now.addAndGet(1);
            assertThat(tokens.current()).as("at 80% of 300 s").isEqualTo("t2");
            assertThat(stub.requests("/token")).isEqualTo(2);
        }
        assertThat(ClientCredentialsToken.renewAfter(10_000)).as("10 s: 5 s before expiry, not 2")
                .isEqualTo(5_000);
        assertThat(ClientCredentialsToken.renewAfter(4_000)).as("shorter than the margin: halfway").isEqualTo(2_000);
    }

    @Test
    void anExpiresInAsAStringIsReadAndAMissingOrZeroOneCountsAsAMinute() throws Exception {
        List<String> answers = new ArrayList<>(List.of("\"expires_in\":\"300\"", "\"expires_in\":0",
                "\"token_type\":\"bearer\""));
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token", r -> new Answer(200,
                "{\"access_token\":\"t" + issued.incrementAndGet() + "\"," + answers.remove(0) + "}")))) {
            ClientCredentialsToken tokens = client(stub, () -> SECRET);
            assertThat(tokens.current()).isEqualTo("t1");
            now.addAndGet(239_999);
            assertThat(tokens.current()).as("300 s, as a string").isEqualTo("t1");
            now.addAndGet(1);
            assertThat(tokens.current()).isEqualTo("t2");
            now.addAndGet(ClientCredentialsToken.renewAfter(60_000) - 1);
            assertThat(tokens.current()).as("0 s: taken as 60 s").isEqualTo("t2");
            now.addAndGet(1);
            assertThat(tokens.current()).isEqualTo("t3");
            now.addAndGet(ClientCredentialsToken.renewAfter(60_000) - 1);
            assertThat(tokens.current()).as("absent: 60 s").isEqualTo("t3");
        }
    }

    @Test
    void aTokenTheServerRejectsIsReplacedAndTheRequestSentOnceMore() throws Exception {
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token", r -> token(300), "/grants",
                r -> "Bearer t1".equals(r.authorization()) ? new Answer(401, "{}") : new Answer(200, "{}")))) {
            ClientCredentialsToken tokens = client(stub, () -> SECRET);
            var response = BearerTokens.send(HttpClient.newHttpClient(), HttpRequest.newBuilder(stub.uri("/grants")),
                    tokens);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(stub.requests("/grants")).isEqualTo(2);
            assertThat(tokens.issued()).isEqualTo(2);
            assertThat(tokens.current()).isEqualTo("t2");
        }
    }

    @Test
    void aFailingEndpointIsAskedAgainAfterADoublingCappedBackOffAndAValidTokenServesMeanwhile() throws Exception {
        AtomicInteger answers = new AtomicInteger();
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token",
                r -> answers.incrementAndGet() == 1 ? token(10) : new Answer(503, "{\"error\":\"unavailable\"}")))) {
            ClientCredentialsToken tokens = client(stub, () -> SECRET);
            assertThat(tokens.current()).isEqualTo("t1");
            now.addAndGet(5_000);
            assertThat(tokens.current()).as("renewal failed, the token has 5 s left").isEqualTo("t1");
            now.addAndGet(999);
            assertThat(tokens.current()).as("within the back-off's 1 s: not asked").isEqualTo("t1");
            assertThat(stub.requests("/token")).isEqualTo(2);
            now.addAndGet(4_001);
            assertThatThrownBy(tokens::current).as("expired, and the endpoint still failing")
                    .hasMessageContaining("HTTP 503 (unavailable)");
            assertThat(stub.requests("/token")).isEqualTo(3);
            now.addAndGet(1_999);
            assertThatThrownBy(tokens::current).hasMessageContaining("next try in 1 ms");
            assertThat(stub.requests("/token")).as("second wait: 2 s").isEqualTo(3);
            now.addAndGet(1);
            assertThatThrownBy(tokens::current).hasMessageContaining("HTTP 503");
            assertThat(stub.requests("/token")).isEqualTo(4);
        }
        ClientCredentialsToken tokens = new ClientCredentialsToken(HttpClient.newHttpClient(),
                java.net.URI.create("http://127.0.0.1:1/token"), "c", () -> SECRET, Duration.ofSeconds(1),
                Duration.ofSeconds(60), now::get);
        assertThat(tokens.backOff(1)).isEqualTo(1_000);
        assertThat(tokens.backOff(3)).isEqualTo(4_000);
        assertThat(tokens.backOff(7)).isEqualTo(60_000);
        assertThat(tokens.backOff(1_000)).isEqualTo(60_000);
    }

    @Test
    void theSecretIsInNoExceptionMessageEvenWhenTheServerEchoesIt() throws Exception {
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token",
                r -> new Answer(401, "{\"error\":\"" + r.form().get("client_secret") + "\",\"error_description\":\""
                        + r.form().get("raw") + "\"}")))) {
            ClientCredentialsToken tokens = client(stub, () -> SECRET);
            assertThatThrownBy(tokens::current).isInstanceOf(IOException.class)
                    .hasMessageContaining("HTTP 401").satisfies(e -> assertThat(e.toString()).doesNotContain(SECRET)
                            .doesNotContain("S3cret"));
        }
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token",
                r -> new Answer(401, "{\"error\":\"invalid_client\",\"error_description\":\"" + SECRET + "\"}")))) {
            assertThatThrownBy(client(stub, () -> SECRET)::current).hasMessageContaining("(invalid_client)")
                    .satisfies(e -> assertThat(e.toString()).doesNotContain(SECRET));
        }
    }

    @Test
    void theSecretFileIsReadAtEveryTokenRequestSoARotatedSecretIsFollowed(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secret");
        Files.writeString(file, "first\n");
        try (TokenEndpointStub stub = new TokenEndpointStub(Map.of("/token",
                r -> r.form().get("client_secret").equals("second")
                        ? token(300)
                        : new Answer(401,
                                "{\"error\":\"unauthorized_client\"}")))) {
            BearerToken tokens = BearerTokens.from("--grants-", Map.of("client-id", "mesos-bridge", "token-endpoint",
                    stub.uri("/token").toString(), "client-secret-file", file.toString())::get, Map.of());
            assertThatThrownBy(tokens::current).hasMessageContaining("(unauthorized_client)")
                    .satisfies(e -> assertThat(e.toString()).doesNotContain("first"));
            Files.writeString(file, "second");
            Thread.sleep(1_100);
            assertThat(tokens.current()).isEqualTo("t1");
        }
    }
}
