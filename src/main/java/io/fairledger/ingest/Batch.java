package io.fairledger.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;

/**
 * One poll's records, decoded: each stored record's share (its facts or admission record), the offsets after the
 * batch, how many facts were left out as known to be stored ({@link CommittedStarts}), and what it changed of the
 * Mesos starts that wait for their resources ({@link ConsumerWaitingStarts}).
 */
record Batch(int records, List<Share> shares, int known, Map<TopicPartition, Long> next,
        WaitingStartTable.Changes waiting) {

    List<SourcedFact> facts() {
        return PoisonRecords.facts(shares);
    }

    /**
     * This batch less the task starts {@code starts} knows to be stored now: it was decoded while the batch before it
     * was being committed, whose starts a container's finish in this one repeats (a container that ran for less than
     * two batches' worth of events). Consumer thread, once the batch before is committed.
     */
    Batch lessKnown(CommittedStarts starts) {
        List<Share> kept = new ArrayList<>(shares.size());
        int leftOut = 0;
        for (Share share : shares) {
            List<SourcedFact> facts = share.facts().stream().filter(f -> !starts.known(f.fact())).toList();
            leftOut += share.facts().size() - facts.size();
            if (facts.size() == share.facts().size()) {
                kept.add(share);
            } else if (!facts.isEmpty() || share.admission() != null) {
                kept.add(new Share(share.source(), facts, share.admission()));
            }
        }
        return leftOut == 0 ? this : new Batch(records, kept, known + leftOut, next, waiting);
    }
}
