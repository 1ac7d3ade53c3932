package io.fairledger.web;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

/**
 * Strong entity tags on the wire (RFC 9110 section 8.8.3): a version written as {@code ETag}, and an {@code If-Match}
 * header read back as the versions it names. Weak tags ({@code W/"..."}) never match for a change (section 13.1.1:
 * If-Match compares strongly), so they are refused as malformed rather than silently failing every time.
 */
public final class IfMatch {

    /** One strong tag: a quoted string of the characters RFC 9110 allows, no quote or backslash. */
    private static final Pattern TAG = Pattern.compile("\\s*\"([\\x21\\x23-\\x7e]*)\"\\s*(,|$)");

    private IfMatch() {
    }

    /**
     * The header of a change's answer saying whether this replica's reads serve the change yet: {@code true}, or
     * {@code false} when its live ledger did not within the wait (docs/api.md, "Read-your-writes").
     */
    public static final String VISIBLE = "Fairledger-Visible";

    /** {@code version} as an {@code ETag} header value: the strong tag {@code "version"}. */
    public static String etag(String version) {
        return '"' + version + '"';
    }

    /** 200 with {@code entity}, tagged with {@code version}. */
    public static Response tagged(Object entity, String version) {
        return Response.ok(entity).header(HttpHeaders.ETAG, etag(version)).build();
    }

    /** 200 with what a change stored, tagged with the version it made, saying whether reads serve it yet. */
    public static Response changed(Object entity, String version, boolean visible) {
        return Response.ok(entity).header(HttpHeaders.ETAG, etag(version)).header(VISIBLE, visible).build();
    }

    /**
     * The versions the {@code If-Match} header of a request names: null (any version) for no header or {@code *}, else
     * the list of its strong tags, unquoted. Read from the headers themselves, not a header parameter, which gives an
     * empty header as none: an empty {@code If-Match} would then change whatever version stands.
     *
     * @throws ProblemException 400 naming {@code header.If-Match} when it is neither {@code *} nor a list of strong
     *                          tags (an empty one included)
     */
    public static List<String> versions(HttpHeaders headers) {
        List<String> lines = headers.getRequestHeader(HttpHeaders.IF_MATCH);
        // several field lines are one list (RFC 9110 section 5.3)
        return lines == null || lines.isEmpty() ? null : versions(String.join(",", lines));
    }

    static List<String> versions(String header) {
        if (header.strip().equals("*")) {
            return null;
        }
        List<String> out = new ArrayList<>();
        Matcher m = TAG.matcher(header);
        int at = 0;
        while (at < header.length() && m.find(at) && m.start() == at) {
            out.add(m.group(1));
            at = m.end();
        }
        if (out.isEmpty() || at < header.length()) {
            throw ProblemException.unreadable("header.If-Match", "must be * or one or more strong entity tags "
                    + "such as \"3f2a...\" (the ETag of a GET), got '" + header + "'");
        }
        return out;
    }
}
