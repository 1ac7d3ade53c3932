package io.fairledger.ingest;

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
}
