package io.fairledger.live.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.GZIPOutputStream;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.live.LiveView;
import io.fairledger.live.LiveViewsModel;

/**
 * The grants body of each live view, encoded once: a view is immutable, so every request until the next view gets the
 * same bytes, plain or gzip-compressed, with an entity tag derived from the content (equal on every replica for the
 * same grants). This is the hot path of resource managers polling for grants.
 */
@ApplicationScoped
public class GrantsCache {

    /** One view's grants: JSON, the same gzip-compressed, and the strong entity tag of the JSON. */
    record Encoded(LiveView view, byte[] json, byte[] gzip, String etag) {
    }

    @Inject
    ObjectMapper json;

    private final Map<String, Encoded> byCluster = new ConcurrentHashMap<>();

    /** The grants of {@code view}, encoded. */
    Encoded of(LiveView view) {
        Encoded e = byCluster.get(view.cluster());
        if (e == null || e.view() != view) {
            e = encode(view);
            byCluster.put(view.cluster(), e);
        }
        return e;
    }

    private Encoded encode(LiveView view) {
        try {
            byte[] body = json.writeValueAsBytes(LiveViewsModel.GrantsView.of(view));
            ByteArrayOutputStream zipped = new ByteArrayOutputStream(body.length / 4);
            try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
                gz.write(body);
            }
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
            return new Encoded(view, body, zipped.toByteArray(),
                    "\"" + HexFormat.of().formatHex(digest, 0, 16) + "\"");
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException("cannot encode the grants of " + view.cluster(), e);
        }
    }
}
