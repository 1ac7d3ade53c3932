package io.fairledger.live.rest;

import java.util.concurrent.atomic.AtomicReference;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fairledger.live.LiveView;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The grants body of each live view, serialised once: a view is immutable, so every request until the next view
 * gets the same bytes (the hot path of resource managers polling for grants).
 */
@ApplicationScoped
public class GrantsCache {

    private record Entry(LiveView view, byte[] json) {
    }

    @Inject
    ObjectMapper json;

    private final java.util.Map<String, AtomicReference<Entry>> byCluster = new java.util.concurrent.ConcurrentHashMap<>();

    /** The grants of {@code view} as JSON. */
    byte[] json(LiveView view) {
        AtomicReference<Entry> ref = byCluster.computeIfAbsent(view.cluster(), c -> new AtomicReference<>());
        Entry e = ref.get();
        if (e == null || e.view() != view) {
            try {
                e = new Entry(view, json.writeValueAsBytes(LiveViewsModel.GrantsView.of(view)));
            } catch (JsonProcessingException ex) {
                throw new IllegalStateException("cannot serialise the grants of " + view.cluster(), ex);
            }
            ref.set(e);
        }
        return e.json();
    }
}
