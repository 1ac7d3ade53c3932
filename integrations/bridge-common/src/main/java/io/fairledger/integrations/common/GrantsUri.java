package io.fairledger.integrations.common;

import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * The address of a cluster's grants, {@code <server>/api/v1/clusters/<id>/grants}, with the cluster id percent-encoded
 * as one path segment (RFC 3986: every byte of its UTF-8 form but the unreserved characters), so an id with {@code /},
 * {@code ?}, {@code #}, {@code %} or a space reaches the server as itself, never as another path.
 */
public final class GrantsUri {

    private GrantsUri() {
    }

    /**
     * @throws IllegalArgumentException when the id is empty, {@code .} or {@code ..} (they would change the path), or
     *             the server is not a URL
     */
    public static URI of(String server, String clusterId) {
        if (clusterId == null || clusterId.isEmpty() || clusterId.equals(".") || clusterId.equals("..")) {
            throw new IllegalArgumentException("cluster id '" + clusterId + "' cannot name a cluster in a URL");
        }
        return URI.create(server.replaceAll("/+$", "") + "/api/v1/clusters/" + segment(clusterId) + "/grants");
    }

    /** {@code value} percent-encoded as one path segment. */
    static String segment(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~".indexOf(c) >= 0) {
                out.append(c);
            } else {
                out.append(String.format("%%%02X", (int) c));
            }
        }
        return out.toString();
    }
}
