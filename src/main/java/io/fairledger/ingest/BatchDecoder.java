package io.fairledger.ingest;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.tenancy.TenancyService;

/**
 * Turns one poll's records into a {@link Batch} on the consumer thread: each event record goes through the
 * {@link Intake} (its facts batched, or kept for admission), each registration through {@link Registrations}
 * (idempotent, the admin API's own rules), and a record that cannot be applied goes to the dead letters with its
 * reason; the batch is returned once those are acknowledged. Task starts known to be stored already
 * ({@link CommittedStarts}) are left out.
 */
final class BatchDecoder {

    private final EventDecoder decoder = new EventDecoder(Clock.systemUTC());
    private final Intake intake = new Intake(this::knownCluster);
    private final TenancyService tenancy;
    private final Registrations registrations;
    private final DeadLetters deadLetters;
    private final IngestMeters ingestMeters;
    private final CommittedStarts starts;
    /** The registered clusters as last read; read again when an event names another. */
    private Set<String> clusters = Set.of();
    /** Facts of the batch being decoded left out as known to be stored. */
    private int knownInBatch;

    BatchDecoder(TenancyService tenancy, Registrations registrations, DeadLetters deadLetters,
            IngestMeters ingestMeters, CommittedStarts starts) {
        this.tenancy = tenancy;
        this.registrations = registrations;
        this.deadLetters = deadLetters;
        this.ingestMeters = ingestMeters;
        this.starts = starts;
    }

    Batch decode(ConsumerRecords<byte[], byte[]> records) {
        List<Share> shares = new ArrayList<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        knownInBatch = 0;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
            String outcome = record.topic().equals(EventTopics.REGISTRATIONS)
                    ? register(record)
                    : accept(record, shares);
            ingestMeters.count(record.topic(), outcome);
        }
        deadLetters.awaitSent();
        return new Batch(records.count(), shares, knownInBatch, next);
    }

    /** One event record through the {@link Intake}: dead-lettered, kept for admission, or its facts batched. */
    private String accept(ConsumerRecord<byte[], byte[]> record, List<Share> shares) {
        Intake.Outcome outcome = intake.accept(decoder.decode(record.topic(), record.headers(), record.value()));
        if (outcome instanceof Intake.Rejected rejected) {
            return deadLetter(record, rejected.code(), rejected.reason());
        }
        if (outcome instanceof Intake.Admission admission) {
            FairledgerEvent event = admission.event();
            shares.add(new Share(record, List.of(), new AdmissionRecord(event.cluster(), event.eventId(),
                    event.eventTime().toEpochMilli(), event.getClass().getSimpleName(), contentType(record),
                    record.value())));
            return "admission";
        }
        Intake.Facts accepted = (Intake.Facts) outcome;
        List<SourcedFact> facts = new ArrayList<>(accepted.facts().size());
        for (LedgerFact fact : accepted.facts()) {
            if (starts.known(fact)) {
                knownInBatch++;
            } else {
                facts.add(new SourcedFact(fact, accepted.event().eventId(), record.topic(), record.partition(),
                        record.offset()));
            }
        }
        if (!facts.isEmpty()) {
            shares.add(new Share(record, facts, null));
        }
        return accepted.facts().isEmpty() ? "ignored" : "accepted";
    }

    private String register(ConsumerRecord<byte[], byte[]> record) {
        String reason = registrations.apply(record.value());
        if (reason == null) {
            return "applied";
        }
        return deadLetter(record, reason.substring(0, reason.indexOf(':')), reason);
    }

    /** @param code a stable reason code (bounded set: the metric's tag), @param reason the header's full text */
    private String deadLetter(ConsumerRecord<byte[], byte[]> record, String code, String reason) {
        deadLetters.send(record, reason);
        ingestMeters.deadLetter(record.topic(), code);
        return "dead-letter";
    }

    private boolean knownCluster(String clusterId) {
        if (!clusters.contains(clusterId)) {
            clusters = tenancy.clusterIds();
        }
        return clusters.contains(clusterId);
    }

    private static String contentType(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(EventDecoder.CONTENT_TYPE_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
