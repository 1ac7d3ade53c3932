package io.fairledger.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;

import jakarta.ws.rs.core.UriInfo;

import io.fairledger.errors.Invalid;

/**
 * Query parameters read by hand, because JAX-RS answers 404 when a typed {@code @QueryParam} cannot be converted:
 * here a value that is not of the parameter's type is a 400 and one out of range a 422, each naming the parameter.
 * Also the one reading of the paging parameters ({@code limit}, {@code cursor}, the {@code Link: rel="next"} header
 * of docs/api.md, "Pagination") and of an answer's form ({@code format}, {@code Accept}).
 */
public final class QueryParameters {

    /** What a cursor's text starts with, before the resource it belongs to and its key. */
    private static final String CURSOR_VERSION = "c1";

    private QueryParameters() {
    }

    /** {@code raw} as an integer in {@code [min, max]}, or {@code fallback} when absent. */
    public static int integer(String name, String raw, int fallback, int min, int max) {
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        String field = "query." + name;
        int value;
        try {
            value = Integer.parseInt(raw.strip());
        } catch (NumberFormatException e) {
            throw ProblemException.unreadable(field, name + " must be an integer from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw Invalid.field(field, name + " must be an integer from " + min + " to " + max);
        }
        return value;
    }

    /**
     * A page size: {@code raw} as an integer from 1 to {@code max}, or {@code fallback} when absent; anything else is
     * a 400 (a page larger than the maximum is a request the server does not answer, not a value it misreads).
     */
    public static int limit(String raw, int fallback, int max) {
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        String message = "limit must be an integer from 1 to " + max;
        try {
            int value = Integer.parseInt(raw.strip());
            if (value >= 1 && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // the same answer as for a number out of range
        }
        throw ProblemException.unreadable("query.limit", message + ", got '" + raw + "'");
    }

    /**
     * The key of the last item of the previous page, from {@code raw} (a cursor this server wrote for
     * {@code resource}, see {@link #cursor(String, long)}), or null for the first page; 400 for a cursor that is
     * malformed or was written for another resource (another cluster, tenant or list).
     */
    public static Long after(String raw, String resource) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        String text;
        try {
            text = new String(Base64.getUrlDecoder().decode(raw.strip()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ProblemException.unreadable("query.cursor", "cursor is not one this server wrote: copy it from the "
                    + "Link header of the previous page");
        }
        int keyAt = text.lastIndexOf('\n');
        if (!text.startsWith(CURSOR_VERSION + "\n") || keyAt < CURSOR_VERSION.length()) {
            throw ProblemException.unreadable("query.cursor", "cursor is not one this server wrote: copy it from the "
                    + "Link header of the previous page");
        }
        if (!text.substring(CURSOR_VERSION.length() + 1, keyAt).equals(resource)) {
            throw ProblemException.unreadable("query.cursor", "cursor belongs to another list than " + resource);
        }
        try {
            return Long.parseLong(text.substring(keyAt + 1));
        } catch (NumberFormatException e) {
            throw ProblemException.unreadable("query.cursor", "cursor is not one this server wrote: copy it from the "
                    + "Link header of the previous page");
        }
    }

    /** The opaque cursor of the page after the item keyed {@code lastKey} of {@code resource}: base64url, unpadded. */
    public static String cursor(String resource, long lastKey) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((CURSOR_VERSION + "\n" + resource + "\n" + lastKey).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The RFC 8288 {@code Link} header value of the next page: the request's path and query with {@code cursor}
     * replaced, as a reference relative to the server (so it holds behind a proxy that rewrites the host).
     */
    public static String nextLink(UriInfo request, String cursor) {
        java.net.URI next = request.getRequestUriBuilder().replaceQueryParam("cursor", cursor).build();
        return "<" + next.getRawPath() + "?" + next.getRawQuery() + ">; rel=\"next\"";
    }

    /**
     * True for CSV: {@code format} is {@code csv}, or absent with an Accept header naming {@code text/csv}: the one
     * rule for every answer offered as JSON and CSV.
     *
     * @throws Invalid
     *             for a format other than csv or json
     */
    public static boolean csv(String format, String accept) {
        if (format == null || format.isBlank()) {
            return accept != null && accept.contains("text/csv");
        }
        return switch (format.strip().toLowerCase(Locale.ROOT)) {
            case "csv" -> true;
            case "json" -> false;
            default -> throw Invalid.field("query.format", "format must be csv or json, got '" + format + "'");
        };
    }
}
