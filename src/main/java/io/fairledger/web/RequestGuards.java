package io.fairledger.web;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.fairledger.core.model.PlainText;

/**
 * Checks run on every request before routing, and the answer to every request the HTTP layer fails, so that each 4xx
 * is problem+json where Quarkus would answer with an empty body or a 404:
 * <ul>
 * <li>a request line longer than {@value #MAX_REQUEST_LINE} characters is a 414 and headers of more than
 * {@value #MAX_HEADER_BYTES} bytes a 431 (Quarkus' own limits, {@code quarkus.http.limits.max-initial-line-length} and
 * {@code max-header-size}, are set higher in application.properties, so such requests reach this check; beyond those
 * the HTTP decoder still answers with an empty body);</li>
 * <li>a body announced larger than {@code quarkus.http.limits.max-body-size} is a 413, and so is a chunked body that
 * grows past it (a chunked body is read here, by Vert.x's body handler, which fails the request with 413);</li>
 * <li>a path that is not plain text once its percent escapes are decoded ({@link PlainText}: U+0000, which no
 * identifier may hold and PostgreSQL cannot store, ESC, CR, LF, an unpaired surrogate) or not UTF-8 at all is a 422,
 * as docs/api.md documents for an invalid identifier;</li>
 * <li>any other 4xx a route fails a request with gets a problem body with its status's title; 401 and 403 stay with
 * the security layer, which adds its challenge.</li>
 * </ul>
 * A request the HTTP decoder itself refuses (a header line without a colon, a Content-Length that is not a number, a
 * {@code %} in the path not followed by two hex digits) never reaches a route: Vert.x answers it with an empty 400, since Quarkus offers no hook for its invalid-request
 * handler.
 */
@ApplicationScoped
public class RequestGuards {

    /** Characters of the request line (method, URI, version): Quarkus' default limit. */
    static final int MAX_REQUEST_LINE = 4096;
    /** Bytes of all header lines together: Quarkus' default limit, 20 KiB. */
    static final int MAX_HEADER_BYTES = 20 * 1024;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    private BodyHandler chunkedBodies;

    void register(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(this::check).failureHandler(this::failed);
    }

    private void check(RoutingContext ctx) {
        String uri = ctx.request().uri();
        if (ctx.request().method().name().length() + uri.length() + " HTTP/1.1".length() + 1 > MAX_REQUEST_LINE) {
            reject(ctx, 414, "path", "the request line is longer than " + MAX_REQUEST_LINE + " characters");
            return;
        }
        long headerBytes = 0;
        for (Map.Entry<String, String> header : ctx.request().headers()) {
            headerBytes += header.getKey().length() + header.getValue().length() + 4;
        }
        if (headerBytes > MAX_HEADER_BYTES) {
            reject(ctx, 431, "headers", "the headers are larger than " + MAX_HEADER_BYTES + " bytes");
            return;
        }
        String rawPath = uri.indexOf('?') < 0 ? uri : uri.substring(0, uri.indexOf('?'));
        String problem = pathProblem(rawPath);
        if (problem != null) {
            reject(ctx, 422, "path", problem);
            return;
        }
        String length = ctx.request().getHeader("Content-Length");
        if (length != null && exceedsLimit(length)) {
            reject(ctx, 413, "body", tooLarge());
            return;
        }
        if (length == null && ctx.request().headers().contains("Transfer-Encoding", "chunked", true)) {
            // read here, within the limit, so that a body growing past it fails the request (413, answered below)
            // instead of being cut off by the REST layer's reader with an empty 413
            chunkedBodies().handle(ctx);
            return;
        }
        ctx.next();
    }

    private synchronized BodyHandler chunkedBodies() {
        if (chunkedBodies == null) {
            chunkedBodies = BodyHandler.create(false).setBodyLimit(maxBodySize.asLongValue());
        }
        return chunkedBodies;
    }

    /** A request the HTTP layer failed with a 4xx status (a chunked body past the limit: 413) gets a problem body. */
    private void failed(RoutingContext ctx) {
        int status = ctx.statusCode();
        if (status < 400 || status >= 500 || status == 401 || status == 403 || ctx.response().headWritten()) {
            ctx.next();
            return;
        }
        if (status == 413) {
            reject(ctx, 413, "body", tooLarge());
        } else {
            reject(ctx, status, "request", title(status).toLowerCase(Locale.ROOT));
        }
    }

    /**
     * What is wrong with a raw path once its percent escapes are decoded: not UTF-8, or text that is not plain
     * ({@link PlainText}); null when it is fine. (Vert.x refuses a malformed escape itself, with an empty 400.)
     */
    static String pathProblem(String rawPath) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(rawPath.length());
        for (int i = 0; i < rawPath.length(); i++) {
            char c = rawPath.charAt(i);
            int high = c == '%' && i + 2 < rawPath.length() ? Character.digit(rawPath.charAt(i + 1), 16) : -1;
            int low = high < 0 ? -1 : Character.digit(rawPath.charAt(i + 2), 16);
            if (low >= 0) {
                bytes.write(high * 16 + low);
                i += 2;
            } else {
                byte[] own = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(own, 0, own.length);
            }
        }
        String decoded;
        try {
            decoded = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return "the path is not UTF-8 once its percent escapes are decoded";
        }
        String problem = PlainText.problem(decoded);
        return problem == null ? null : "the path contains " + problem;
    }

    /** RFC 9110's reason phrase, which renamed some of those Netty knows. */
    private static String title(int status) {
        return switch (status) {
            case 413 -> "Content Too Large";
            case 414 -> "URI Too Long";
            case 422 -> "Unprocessable Content";
            default -> HttpResponseStatus.valueOf(status).reasonPhrase();
        };
    }

    private String tooLarge() {
        return "the body is larger than the limit of " + maxBodySize.asLongValue() + " bytes (4M by default)";
    }

    private boolean exceedsLimit(String length) {
        try {
            return Long.parseLong(length.strip()) > maxBodySize.asLongValue();
        } catch (NumberFormatException e) {
            return false; // Vert.x rejects a malformed Content-Length itself
        }
    }

    private void reject(RoutingContext ctx, int status, String field, String message) {
        Problem body = new Problem("about:blank", title(status), status, field + ": " + message, ctx.request().path(),
                List.of(new Problem.FieldError(field, message)));
        try {
            ctx.response().setStatusCode(status).putHeader("Content-Type", Problem.MEDIA_TYPE)
                    .putHeader("Connection", "close").end(Buffer.buffer(json.writeValueAsBytes(body)));
        } catch (JsonProcessingException impossible) {
            throw new IllegalStateException("a problem body is always serialisable", impossible);
        }
    }
}
