package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;

/**
 * Where {@link IndexedAdmissionQueue} keeps its placed jobs: buckets of equal placed request and groups of equal
 * {@code maxCPUs}, each array indexed by CPUs with a set of its non-empty slots, so a query visits only non-empty
 * buckets and groups in increasing CPUs. A bucket or group that empties is dropped at once. O(1) per update, O(1)
 * amortised per visited slot.
 */
final class CertificateIndex {

    private final RequestBucket[] buckets;
    private final BitSet nonEmptyBuckets = new BitSet();
    private final MaxCpusGroup[] groups;
    private final BitSet nonEmptyGroups = new BitSet();

    CertificateIndex(int capacity) {
        this.buckets = new RequestBucket[capacity + 1];
        this.groups = new MaxCpusGroup[capacity + 1];
    }

    /** Forgets every bucket and group. */
    void clear() {
        for (int r = nonEmptyBuckets.nextSetBit(0); r >= 0; r = nonEmptyBuckets.nextSetBit(r + 1)) {
            buckets[r] = null;
        }
        nonEmptyBuckets.clear();
        for (int g = nonEmptyGroups.nextSetBit(0); g >= 0; g = nonEmptyGroups.nextSetBit(g + 1)) {
            groups[g] = null;
        }
        nonEmptyGroups.clear();
    }

    /** The first non-empty bucket at or above {@code r}, or -1. */
    int nextBucket(int r) {
        return nonEmptyBuckets.nextSetBit(r);
    }

    RequestBucket bucket(int r) {
        return buckets[r];
    }

    /** The first non-empty group at or above {@code g}, or -1. */
    int nextGroup(int g) {
        return nonEmptyGroups.nextSetBit(g);
    }

    /** The group {@code g}, or null when it has no member. */
    MaxCpusGroup group(int g) {
        return groups[g];
    }

    /** Makes the job a member of group {@code g} (created when empty); returns the group. */
    MaxCpusGroup join(QueuedJob job, int g, long now, Comparator<QueuedJob> order) {
        job.group = g;
        if (groups[g] == null) {
            groups[g] = new MaxCpusGroup();
            nonEmptyGroups.set(g);
        }
        groups[g].join(job, now, order);
        return groups[g];
    }

    /** Removes the job from its group, dropping the group when it empties. */
    void leaveGroup(QueuedJob job) {
        if (--groups[job.group].live == 0) {
            groups[job.group] = null;
            nonEmptyGroups.clear(job.group);
        }
        job.group = -1;
    }

    /** Puts the job in the bucket of {@code request}; the caller has set its placed request and version. */
    void place(QueuedJob job, int request, Comparator<QueuedJob> order) {
        if (buckets[request] == null) {
            buckets[request] = new RequestBucket(new ArrayList<>());
            nonEmptyBuckets.set(request);
        }
        buckets[request].add(new RequestBucket.Entry(job, job.version, order));
    }

    /** Takes the job out of its bucket; its entry becomes stale. */
    void unplace(QueuedJob job) {
        int r = (int) job.placedRequest;
        job.version++;
        if (--buckets[r].live == 0) {
            buckets[r] = null;
            nonEmptyBuckets.clear(r);
        }
        job.placedRequest = 0;
    }
}
