package io.fairledger.live;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a {@link LiveView} says, by name, for tests that compare two views field by field: its open statement and
 * fairness computed (a view computes them when first read, and keeps how until then).
 */
public final class LiveViewValues {

    private LiveViewValues() {
    }

    /** Every value of {@code v}. */
    public static Map<String, Object> of(LiveView v) {
        Map<String, Object> out = beforeEnded(v);
        out.put("ended", v.ended());
        return out;
    }

    /** Every value of {@code v} but its ended periods (which a ledger releases once they are closed). */
    public static Map<String, Object> beforeEnded(LiveView v) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cluster", v.cluster());
        out.put("asOf", v.asOf());
        out.put("facts", v.facts());
        out.put("grantIntervalMs", v.grantIntervalMs());
        out.put("capacity", v.capacity());
        out.put("accounts", v.accounts());
        out.put("fairness", v.fairness());
        out.put("grants", v.grants());
        out.put("openStatement", v.openStatement());
        out.put("currency", v.currency());
        return out;
    }
}
