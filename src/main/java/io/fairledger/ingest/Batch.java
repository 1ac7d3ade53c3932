package io.fairledger.ingest;

import java.util.List;
import java.util.Map;

import org.apache.kafka.common.TopicPartition;

import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;

/**
 * One poll's records, decoded: each stored record's share (its facts or admission record), the offsets after the
 * batch, and how many facts were left out as known to be stored ({@link CommittedStarts}).
 */
record Batch(int records, List<Share> shares, int known, Map<TopicPartition, Long> next) {

    List<SourcedFact> facts() {
        return PoisonRecords.facts(shares);
    }
}
