package io.fairledger.core.admission;

import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The jobs of one placed request, in the fixed order; entries of jobs that left are skipped lazily. The heap is
 * built on the first query, so buckets no pass looks at (requests above the free CPUs) cost no ordering work.
 */
final class RequestBucket {
    private List<Entry> pending;
    private PriorityQueue<Entry> heap;
    int live;

    RequestBucket(List<Entry> entries) {
        this.pending = entries;
        this.live = entries.size();
    }

    void add(Entry entry) {
        if (heap == null) {
            pending.add(entry);
            if (pending.size() > 2 * live + 16) {
                pending.removeIf(e -> e.version != e.job.version);
            }
        } else {
            heap.add(entry);
            if (heap.size() > 2 * live + 16) {
                heap.removeIf(e -> e.version != e.job.version);
            }
        }
        live++;
    }

    QueuedJob head() {
        if (heap == null) {
            heap = new PriorityQueue<>(pending);
            pending = null;
        }
        while (heap.peek().version != heap.peek().job.version) {
            heap.poll();
        }
        return heap.peek().job;
    }

    /** A job in the bucket's fixed order; stale once the job was re-placed or left. */
    record Entry(QueuedJob job, int version, Comparator<QueuedJob> order) implements Comparable<Entry> {
        @Override
        public int compareTo(Entry other) {
            return order.compare(job, other.job);
        }
    }
}
