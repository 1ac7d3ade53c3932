package io.fairledger.ingest.schema;

/**
 * Upper bounds beyond which an amount is taken to be a bug or corruption rather than a real cluster, and the record is
 * rejected. They are far above any real cluster, so no real event is lost to them.
 */
public final class ResourceLimits {

    /** 2^40 MB (one exbibyte) of memory. */
    public static final long MAX_MEMORY_MB = 1L << 40;
    /** 2^24 (about 16.8 million) CPUs or vcores. */
    public static final double MAX_CPUS = 1L << 24;
    /** 2^20 (about a million) GPUs. */
    public static final double MAX_GPUS = 1L << 20;
    /** 2^24 tasks or containers in one job or demand report. */
    public static final long MAX_TASKS = 1L << 24;
    /** 2^55 CPU-seconds: {@link #MAX_CPUS} busy for about a hundred years. */
    public static final double MAX_CPU_SECONDS = (double) (1L << 55);
    /** Ten years, in seconds, for relative deadlines. */
    public static final long MAX_DEADLINE_SECONDS = 10L * 365 * 24 * 3600;
    /** Jobs in one workflow. */
    public static final int MAX_WORKFLOW_JOBS = 100_000;
    /** Characters in an id or name. */
    public static final int MAX_ID_LENGTH = 512;

    private ResourceLimits() {
    }
}
