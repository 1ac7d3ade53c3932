package io.fairledger.core.ledger;

import java.util.ArrayList;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Young tasks by the instant their time quantum ends, so each is ended exactly once, at its end. A two-level calendar
 * queue: tasks ending in a later bucket of {@link #BUCKET_MS} wait in an unsorted list per bucket; only the current
 * bucket is a heap. With quanta of minutes and 100,000 running tasks a plain heap pays ~17 cache-missing levels per
 * task; here a task costs one list append, one small-heap insert and one small-heap removal.
 */
final class QuantumExpiry {

    /** Width of a bucket: about a second. */
    static final int BUCKET_SHIFT = 10;
    static final long BUCKET_MS = 1L << BUCKET_SHIFT;

    final TreeMap<Long, ArrayList<RunningTask>> later = new TreeMap<>();
    final PriorityQueue<RunningTask> current = new PriorityQueue<>(
            (x, y) -> Long.compare(x.quantumEnd, y.quantumEnd));
    long currentBucket;

    QuantumExpiry(long start) {
        this.currentBucket = start >> BUCKET_SHIFT;
    }

    void add(RunningTask task) {
        long bucket = task.quantumEnd >> BUCKET_SHIFT;
        if (bucket <= currentBucket) {
            current.add(task);
        } else {
            later.computeIfAbsent(bucket, b -> new ArrayList<>()).add(task);
        }
    }

    /** Hands every task whose quantum ended by {@code t} to {@code end}, in no particular order across buckets. */
    void expire(long t, Consumer<RunningTask> end) {
        long bucket = t >> BUCKET_SHIFT;
        if (bucket > currentBucket) {
            while (!current.isEmpty()) {
                end.accept(current.poll());
            }
            while (!later.isEmpty() && later.firstKey() < bucket) {
                later.pollFirstEntry().getValue().forEach(end);
            }
            Map.Entry<Long, ArrayList<RunningTask>> now = later.firstEntry();
            if (now != null && now.getKey() == bucket) {
                current.addAll(later.pollFirstEntry().getValue());
            }
            currentBucket = bucket;
        }
        while (!current.isEmpty() && current.peek().quantumEnd <= t) {
            end.accept(current.poll());
        }
    }
}
