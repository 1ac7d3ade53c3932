package io.fairledger.core.admission;

import java.util.List;

/** The admission policies by the names that command options, admin settings and reports use. */
public final class AdmissionPolicies {

    /** Every policy's name. */
    public static final List<String> NAMES = List.of("justice", "pythia", "oracle", "baseline-fs", "reactive-fs");

    private AdmissionPolicies() {
    }

    /**
     * A fresh policy {@code name} of {@code capacity} CPUs; {@code config} applies to Justice and PYTHIA, and its
     * priority and queue choice to the Oracle.
     *
     * @throws IllegalArgumentException
     *             for a name not in {@link #NAMES}
     */
    public static AdmissionPolicy create(String name, int capacity, JusticeConfig config) {
        return switch (name) {
            case "justice" -> new Justice(capacity, config);
            case "pythia" -> new Pythia(capacity, config);
            case "oracle" -> new Oracle(capacity, config.priority(), config.indexed());
            case "baseline-fs" -> new BaselineFairShare(capacity);
            case "reactive-fs" -> new ReactiveFairShare(capacity);
            default -> throw new IllegalArgumentException("unknown admission policy '" + name + "', expected one of "
                    + NAMES);
        };
    }
}
