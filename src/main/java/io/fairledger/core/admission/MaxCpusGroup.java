package io.fairledger.core.admission;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The jobs of one {@code maxCPUs}: all members in the fixed order, an upper bound of their urgencies, and the
 * fraction limits of their request certificates while they are placed.
 *
 * <p>
 * In <em>uniform</em> mode the members are not placed: the urgency bound proves they all need {@link
 * #uniformRequest}, so the group offers its first member in the fixed order, and a fraction change costs two
 * evaluations, not one re-certification per member. That is the usual case when deadlines are long against
 * queue times; otherwise the group is in placed mode and its members sit in buckets.
 */
final class MaxCpusGroup {
    final PriorityQueue<CertificateBound> from = new PriorityQueue<>(CertificateBound.DESCENDING);
    final PriorityQueue<CertificateBound> upTo = new PriorityQueue<>(CertificateBound.ASCENDING);
    final PriorityQueue<Member> members = new PriorityQueue<>();
    int live;
    /** Request certifications since the urgency bound was last computed. */
    int recertified;
    boolean uniform;
    /** At least every member's urgency at every instant up to {@link #horizon}; valid while not past it. */
    double maxUrgency;
    long horizon = Long.MIN_VALUE;

    void add(PriorityQueue<CertificateBound> heap, CertificateBound bound) {
        heap.add(bound);
        if (heap.size() > 2 * live + 16) {
            heap.removeIf(b -> b.version() != b.job().version);
        }
    }

    void join(QueuedJob job, long now, Comparator<QueuedJob> order) {
        live++;
        members.add(new Member(job, job.membership, order));
        if (members.size() > 2 * live + 16) {
            members.removeIf(m -> !m.isCurrent());
        }
        if (horizon >= now && job.ttdMillis(horizon) > 0) {
            maxUrgency = Math.max(maxUrgency, job.urgency(job.ttdMillis(horizon)));
        } else {
            horizon = Long.MIN_VALUE;
        }
    }

    /**
     * A new bound from {@code now} to a horizon 1/1024 of the shortest member's TTD ahead, so urgencies grow by at
     * most about 0.1% up to it: O(members), and only when the old bound ran out.
     */
    void bound(long now) {
        long shortest = Long.MAX_VALUE;
        for (Member member : members) {
            if (member.isCurrent()) {
                shortest = Math.min(shortest, member.job.ttdMillis(now));
            }
        }
        horizon = now + (shortest >> 10);
        maxUrgency = 0;
        for (Member member : members) {
            if (member.isCurrent()) {
                maxUrgency = Math.max(maxUrgency, member.job.urgency(member.job.ttdMillis(horizon)));
            }
        }
    }

    QueuedJob head() {
        while (!members.peek().isCurrent()) {
            members.poll();
        }
        return members.peek().job;
    }

    List<QueuedJob> liveMembers() {
        List<QueuedJob> jobs = new ArrayList<>(live);
        for (Member member : members) {
            if (member.isCurrent()) {
                jobs.add(member.job);
            }
        }
        return jobs;
    }

    /** A group member in the fixed order; stale once the job left the group. */
    record Member(QueuedJob job, int membership, Comparator<QueuedJob> order) implements Comparable<Member> {
        boolean isCurrent() {
            return membership == job.membership;
        }

        @Override
        public int compareTo(Member other) {
            return order.compare(job, other.job);
        }
    }
}
