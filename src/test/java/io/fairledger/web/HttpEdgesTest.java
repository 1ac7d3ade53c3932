package io.fairledger.web;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * The HTTP layer's own refusals (414, 431, 413 of a chunked body) answer with problem+json,
 * and a path with a control character or bytes that are not UTF-8 is the documented 422, not a 404.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class HttpEdgesTest {

    private static final String CLUSTERS = "/api/v1/admin/clusters";

    @TestHTTPResource(CLUSTERS)
    URI clusters;

    @Test
    void aLongPathIsAProblem() {
        given().get(CLUSTERS + "/" + "x".repeat(10_000)).then().statusCode(414)
                .contentType(Problem.MEDIA_TYPE).body("status", equalTo(414));
    }

    @Test
    void largeHeadersAreAProblem() {
        given().header("X-Big", "y".repeat(30_000)).get(CLUSTERS).then().statusCode(431)
                .contentType(Problem.MEDIA_TYPE).body("status", equalTo(431));
    }

    @Test
    void controlCharactersAndBytesThatAreNotUtf8InThePathAreUnprocessable() {
        for (String segment : new String[]{"a%1B%5B31mb", "a%0D%0Ab", "a%FFb", "a%C0%AFb"}) {
            given().urlEncodingEnabled(false).get(CLUSTERS + "/" + segment).then().statusCode(422)
                    .contentType(Problem.MEDIA_TYPE).body("errors[0].field", equalTo("path"));
        }
        given().urlEncodingEnabled(false).get(CLUSTERS + "/a%1Bb").then().statusCode(422)
                .body("detail", containsString("U+001B"));
    }

    @Test
    void aChunkedBodyPastTheLimitIsAProblem() throws Exception {
        String response = exchange(socket -> {
            socket.getOutputStream().write(("POST " + CLUSTERS + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] chunk = new byte[1024 * 1024];
            java.util.Arrays.fill(chunk, (byte) ' ');
            try {
                for (int i = 0; i < 8; i++) {
                    socket.getOutputStream().write((Integer.toHexString(chunk.length) + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
                    socket.getOutputStream().write(chunk);
                    socket.getOutputStream().write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                socket.getOutputStream().write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            } catch (java.io.IOException closedEarly) {
                // the server may answer and close before the whole body is sent
            }
        });
        assertThat(response).startsWith("HTTP/1.1 413").containsIgnoringCase("content-type: " + Problem.MEDIA_TYPE)
                .contains("\"status\":413");
    }

    @Test
    void aChunkedBodyWithinTheLimitIsRead() throws Exception {
        String body = "{\"id\":\"chunked-ok\",\"resourceManager\":\"YARN\"}";
        String response = exchange(socket -> socket.getOutputStream().write(("POST " + CLUSTERS + " HTTP/1.1\r\n"
                + "Host: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n" + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII)));
        assertThat(response).startsWith("HTTP/1.1 201");
    }

    private interface Send {
        void to(Socket socket) throws Exception;
    }

    private String exchange(Send send) throws Exception {
        try (Socket socket = new Socket(clusters.getHost(), clusters.getPort())) {
            socket.setSoTimeout(60_000);
            send.to(socket);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    all.write(buffer, 0, n);
                }
            } catch (java.net.SocketException reset) {
                // a reset after the answer: what was read is the answer
            }
            return all.toString(StandardCharsets.UTF_8);
        }
    }
}
