package io.fairledger.ingest;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.facts.LedgerFact;

/**
 * The Mesos task starts without resources that wait for their task's resources (docs/ingestion.md, "Duplicates, order
 * and lateness"), the one rule for the consumer and {@code fairledger account}. A status update does not repeat its
 * task's resources; when it arrives before the task's TASK_ADDED (or any other start that carries them), it waits:
 * <ul>
 * <li>a start with resources of the same task whose event time is at most the allowed lateness after the waiting
 * start's {@link #release releases} it: the waiting start counts, at its own event time, with those resources (of the
 * task's starts the earliest counts, as in any order);</li>
 * <li>once the cluster's watermark (the latest event time of its accepted ledger events) passes the waiting start's
 * time plus twice the allowed lateness, no event that could release it can still arrive within the lateness (a
 * releasing event is at most one lateness after the start and arrives at most one lateness late): it
 * {@link #advance expires} as a dead letter whose reason names the task and what it lacked.</li>
 * </ul>
 * So in every arrival order in which no event comes more than the allowed lateness after the watermark, the same
 * starts count and the same ones are dead letters. At most {@link #MAX_PER_CLUSTER} starts of one cluster wait: one
 * more is a dead letter at once, so a flood of updates without resources (a misbehaving bridge, a forged stream) costs
 * bounded memory (the consumer holds each with its record, about a kilobyte) instead of stopping the server. Not
 * thread-safe.
 *
 * @param <S> where a waiting start came from (its record, its line), handed back with its dead letter
 */
public final class WaitingStarts<S> {

    /** A start that waited in vain: the record it came from and the dead letter's reason, starting with its code. */
    public record Expired<S>(S source, String reason) {
    }

    /** The reason code of an expired start, and of one refused because too many of its cluster wait. */
    public static final String CODE = "invalid";

    /** How many starts of one cluster may wait at once; about 100 MB of the consumer's heap when all do. */
    public static final int MAX_PER_CLUSTER = 100_000;

    private record Task(String clusterId, String taskId) {
    }

    private static final class Held<S> {
        final Normaliser.Unresourced start;
        final S source;
        final long expiresAfter;
        boolean released;

        Held(Normaliser.Unresourced start, S source, long expiresAfter) {
            this.start = start;
            this.source = source;
            this.expiresAfter = expiresAfter;
        }
    }

    private final Function<String, Duration> lateness;
    private final Consumer<S> onReleased;
    private final Map<Task, List<Held<S>>> byTask = new HashMap<>();
    private final Map<String, PriorityQueue<Held<S>>> byExpiry = new HashMap<>();
    private final Map<String, Long> watermarks = new HashMap<>();
    /** Each cluster's starts that wait: neither released, expired nor dropped. */
    private final Map<String, Integer> waitingPerCluster = new HashMap<>();
    private final int maxPerCluster;

    /** @param lateness each cluster's allowed lateness */
    public WaitingStarts(Function<String, Duration> lateness) {
        this(lateness, source -> {
        });
    }

    /**
     * @param lateness   each cluster's allowed lateness
     * @param onReleased told the source of each start {@link #release} releases (the consumer forgets its stored row)
     */
    public WaitingStarts(Function<String, Duration> lateness, Consumer<S> onReleased) {
        this(lateness, onReleased, MAX_PER_CLUSTER);
    }

    /** As above, with {@code maxPerCluster} in place of {@link #MAX_PER_CLUSTER} (tests). */
    WaitingStarts(Function<String, Duration> lateness, Consumer<S> onReleased, int maxPerCluster) {
        this.lateness = lateness;
        this.onReleased = onReleased;
        this.maxPerCluster = maxPerCluster;
    }

    /**
     * {@code start}, from {@code source}, waits for its task's resources; or, when as many starts of its cluster
     * already wait as may, it is refused: the dead letter to send.
     */
    public Optional<Expired<S>> hold(Normaliser.Unresourced start, S source) {
        String clusterId = start.clusterId();
        if (waitingPerCluster.getOrDefault(clusterId, 0) >= maxPerCluster) {
            return Optional.of(new Expired<>(source, reason(start, maxPerCluster + " such starts of cluster '"
                    + clusterId + "' already wait for their task's resources, as many as may wait at once")));
        }
        waitingPerCluster.merge(clusterId, 1, Integer::sum);
        long twice = lateness.apply(clusterId).toMillis() * 2;
        Held<S> held = new Held<>(start, source, start.at() + twice);
        byTask.computeIfAbsent(new Task(start.clusterId(), start.taskId()), task -> new ArrayList<>()).add(held);
        byExpiry.computeIfAbsent(start.clusterId(),
                cluster -> new PriorityQueue<>(Comparator.comparingLong((Held<S> h) -> h.expiresAfter)))
                .add(held);
        return Optional.empty();
    }

    /**
     * The starts that {@code facts}, of a Mesos event that carries its task's resources, release: each a start of the
     * same task at the waiting start's time with the resources, tenant and application of the releasing one.
     */
    public List<LedgerFact> release(List<LedgerFact> facts) {
        List<LedgerFact> released = new ArrayList<>();
        for (LedgerFact fact : facts) {
            if (fact instanceof LedgerFact.Event e && e.event() instanceof LedgerEvent.TaskStarted with) {
                Task task = new Task(with.clusterId(), with.taskId());
                List<Held<S>> waiting = byTask.get(task);
                if (waiting == null) {
                    continue;
                }
                long latest = with.at() - lateness.apply(with.clusterId()).toMillis();
                for (Held<S> held : waiting) {
                    if (held.start.at() >= latest) {
                        held.released = true;
                        stopsWaiting(held);
                        onReleased.accept(held.source);
                        released.add(new LedgerFact.Event(new LedgerEvent.TaskStarted(with.clusterId(), with.taskId(),
                                with.tenant(), with.applicationId(), with.resources(), held.start.at()),
                                LedgerFact.taskKey(with.taskId(), true)));
                    }
                }
                waiting.removeIf(held -> held.released);
                if (waiting.isEmpty()) {
                    byTask.remove(task);
                }
            }
        }
        return released;
    }

    /**
     * {@code clusterId} accepted a ledger event of time {@code eventTime}: the starts the watermark now passes by twice
     * the allowed lateness expire.
     */
    public List<Expired<S>> advance(String clusterId, long eventTime) {
        long watermark = watermarks.merge(clusterId, eventTime, Math::max);
        PriorityQueue<Held<S>> queue = byExpiry.get(clusterId);
        List<Expired<S>> expired = new ArrayList<>();
        while (queue != null && !queue.isEmpty() && queue.peek().expiresAfter < watermark) {
            Held<S> held = queue.poll();
            if (!held.released) {
                forget(held);
                stopsWaiting(held);
                expired.add(new Expired<>(held.source, reason(held.start, lateness.apply(clusterId),
                        "before the watermark of cluster '" + clusterId + "' passed "
                                + Instant.ofEpochMilli(held.expiresAfter) + " (its time plus twice the lateness)")));
            }
        }
        return expired;
    }

    /**
     * The end of the events ({@code fairledger account}'s file): every start still waiting expires, those of a
     * cluster by time.
     */
    public List<Expired<S>> rest() {
        List<Expired<S>> expired = new ArrayList<>();
        byExpiry.forEach((clusterId, queue) -> {
            while (!queue.isEmpty()) {
                Held<S> held = queue.poll();
                if (!held.released) {
                    expired.add(new Expired<>(held.source, reason(held.start, lateness.apply(clusterId),
                            "among the events")));
                }
            }
        });
        byTask.clear();
        waitingPerCluster.clear();
        return expired;
    }

    /**
     * Forgets the waiting starts whose source {@code whose} matches, neither released nor expired: the consumer drops
     * those of partitions it no longer holds, or is about to read again from their stored state.
     */
    public void drop(Predicate<S> whose) {
        byExpiry.values().forEach(queue -> queue.removeIf(held -> whose.test(held.source)));
        byTask.values().forEach(waiting -> waiting.removeIf(held -> {
            if (whose.test(held.source)) {
                stopsWaiting(held);
                return true;
            }
            return false;
        }));
        byTask.values().removeIf(List::isEmpty);
    }

    /**
     * Forgets every cluster's watermark: the consumer reads partitions again from their stored state, and a watermark
     * raised by events it will read again would expire their starts too early. Starting afresh only delays expiry.
     */
    public void forgetWatermarks() {
        watermarks.clear();
    }

    /** How many starts wait. */
    public int size() {
        return waitingPerCluster.values().stream().mapToInt(Integer::intValue).sum();
    }

    private void stopsWaiting(Held<S> held) {
        waitingPerCluster.computeIfPresent(held.start.clusterId(), (cluster, n) -> n == 1 ? null : n - 1);
    }

    private void forget(Held<S> held) {
        Task task = new Task(held.start.clusterId(), held.start.taskId());
        List<Held<S>> waiting = byTask.get(task);
        if (waiting != null) {
            waiting.remove(held);
            if (waiting.isEmpty()) {
                byTask.remove(task);
            }
        }
    }

    /** The dead letter's reason of {@code start}, which waited in vain {@code until}. */
    static String reason(Normaliser.Unresourced start, Duration lateness, String until) {
        return reason(start, "no event of the task that carries them, at most the allowed lateness (" + lateness
                + ") after it, arrived " + until);
    }

    private static String reason(Normaliser.Unresourced start, String and) {
        return CODE + ": a Mesos task start (" + start.state() + " at " + Instant.ofEpochMilli(start.at())
                + ") of task '" + start.taskId() + "' carries no resources (cpus, mem, gpus), and " + and;
    }
}
