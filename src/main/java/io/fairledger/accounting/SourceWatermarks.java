package io.fairledger.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.fairledger.facts.StoredTransaction;

/**
 * The closing watermark of a cluster at a position in the arrival order (docs/accounting.md, "Per-source watermarks"):
 * per source (a Kafka topic partition that has delivered facts of the cluster), the latest event time it delivered and
 * when it last delivered (the arrival clock then); a source is <em>idle</em> when the arrival clock has moved more
 * than the idle timeout past its last delivery. The closing watermark is the highest, over the transactions so far, of
 * the lowest watermark of the usage sources (YARN containers, Mesos tasks; {@link #reportsUsage}) that are not idle, or
 * of every source not idle while no usage source is: it never goes back, so a source that comes back, or a new one,
 * delivers late facts rather than reopening what the others had passed.
 * <p>
 * Everything here is read from the stored transactions (event times, sources, {@code ingested_at}), so every replica
 * and every restart computes the same watermark at the same position. Not thread-safe.
 */
final class SourceWatermarks {

    /**
     * One source's state.
     *
     * @param watermark   the latest event time it delivered
     * @param lastArrival the arrival clock when it last delivered
     */
    record Source(long watermark, long lastArrival) {
    }

    private final long idleMs;
    private final TreeMap<String, Source> sources;
    private long closing;

    /** No source yet; a source is idle once the clock is more than {@code idleMs} past its last delivery. */
    SourceWatermarks(long idleMs) {
        this(idleMs, Map.of(), Long.MIN_VALUE);
    }

    /** The state recorded at a position ({@link #sources}, {@link #closing}). */
    SourceWatermarks(long idleMs, Map<String, Source> sources, long closing) {
        if (idleMs < 0) {
            throw new IllegalArgumentException("the idle timeout must be >= 0 ms, got " + idleMs);
        }
        this.idleMs = idleMs;
        this.sources = new TreeMap<>(sources);
        this.closing = closing;
    }

    /** Takes the next transaction in position order. */
    void accept(StoredTransaction t) {
        long clock = Math.max(clock(), t.arrivedAt());
        for (StoredTransaction.Span s : t.spans()) {
            sources.merge(s.source(), new Source(s.latest(), clock),
                    (old, now) -> new Source(Math.max(old.watermark(), now.watermark()), clock));
        }
        long lowest = lowestActive(clock, true);
        if (lowest == Long.MAX_VALUE) {
            // no usage source delivering: the others hold; the sources of t are never idle, so one of them counts
            lowest = lowestActive(clock, false);
        }
        closing = Math.max(closing, lowest);
    }

    /**
     * The lowest watermark of the sources not idle at {@code clock}, of the usage sources only when {@code usageOnly};
     * {@link Long#MAX_VALUE} when there is none.
     */
    private long lowestActive(long clock, boolean usageOnly) {
        long lowest = Long.MAX_VALUE;
        for (Map.Entry<String, Source> e : sources.entrySet()) {
            if (!idle(e.getValue(), clock) && (!usageOnly || reportsUsage(e.getKey()))) {
                lowest = Math.min(lowest, e.getValue().watermark());
            }
        }
        return lowest;
    }

    /**
     * Whether a source is a partition of a topic of task usage (YARN containers, Mesos tasks), the events a period's
     * usage is made of. The other topics (capacity, demand, jobs, workflows) report changes only and fall silent by
     * nature; they hold periods open only while no usage source delivers.
     */
    static boolean reportsUsage(String source) {
        return source.startsWith("fairledger.yarn.containers-") || source.startsWith("fairledger.mesos.tasks-");
    }

    /** The closing watermark; {@link Long#MIN_VALUE} before any transaction. */
    long closing() {
        return closing;
    }

    /** The latest event time over every source (what a configuration change closes the ended periods by). */
    long latest() {
        return sources.values().stream().mapToLong(Source::watermark).max().orElse(Long.MIN_VALUE);
    }

    /** The sources idle now, by name. */
    List<String> idle() {
        long clock = clock();
        List<String> out = new ArrayList<>();
        sources.forEach((name, s) -> {
            if (idle(s, clock)) {
                out.add(name);
            }
        });
        return out;
    }

    /** The idle timeout this state tells idle sources by, in milliseconds. */
    long idleMs() {
        return idleMs;
    }

    /** Every source's state, by name. */
    Map<String, Source> sources() {
        return Map.copyOf(sources);
    }

    /** A copy that later transactions do not change. */
    SourceWatermarks copy() {
        return new SourceWatermarks(idleMs, sources, closing);
    }

    /** The arrival clock: the latest arrival among the transactions taken (the last one's, or later). */
    private long clock() {
        return sources.values().stream().mapToLong(Source::lastArrival).max().orElse(Long.MIN_VALUE);
    }

    private boolean idle(Source s, long clock) {
        return clock - s.lastArrival() > idleMs;
    }
}
