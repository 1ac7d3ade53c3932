package io.fairledger.simulation.trace;

import java.util.Arrays;
import java.util.List;

/** The trace formats {@code fairledger simulate --format} reads. */
public enum TraceFormat {
    /** Hadoop SLS Rumen job history (concatenated JSON objects). */
    SLS_RUMEN("sls-rumen"),
    /** Hadoop SLS native input (concatenated JSON objects). */
    SLS("sls"),
    /** Google cluster-usage trace 2011, task_events (gzipped or plain CSV). */
    GOOGLE2011("google2011"),
    /** Alibaba cluster-trace-v2017 batch_task.csv. */
    ALIBABA2017("alibaba2017"),
    /** Standard Workload Format (Parallel Workloads Archive), plain or gzipped. */
    SWF("swf"),
    /** SWIM Facebook samples (bytes only; conversion by {@link SwimReader.Conversion}). */
    SWIM("swim"),
    /** The project's JSON Lines (docs/domain.md section 11). */
    JSONL("jsonl");

    private final String cliName;

    TraceFormat(String cliName) {
        this.cliName = cliName;
    }

    /** The name used on the command line. */
    public String cliName() {
        return cliName;
    }

    /** The format called {@code name} on the command line. */
    public static TraceFormat named(String name) {
        return Arrays.stream(values()).filter(f -> f.cliName.equalsIgnoreCase(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown trace format '" + name
                        + "', expected one of " + names()));
    }

    /** Every command-line name. */
    public static List<String> names() {
        return Arrays.stream(values()).map(TraceFormat::cliName).toList();
    }
}
