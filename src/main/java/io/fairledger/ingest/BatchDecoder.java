package io.fairledger.ingest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;

import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.ingest.schema.EventEncoder;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.FairledgerEvent;

/**
 * Turns one poll's records into a {@link Batch}: each event record through the {@link Intake} (dead-lettered, kept for
 * admission, or its facts batched, less the task starts known to be stored, {@link CommittedStarts}), each
 * registration through {@link Registrations}. A registration the database fails to apply is classified
 * ({@link StoreFailures}): refused data is a dead letter at once, the database away fails the batch (read again after
 * a pause), any other failure fails it {@link StoreFailures#TRIES} times and then the record is a dead letter, so no
 * registration blocks the partitions of its batch for good. Every dead letter of the batch is acknowledged before the
 * batch is handed over. Consumer thread only.
 */
final class BatchDecoder {

    /** What the decoder needs of the consumer: its decoding and the stores of what it learnt. */
    record Parts(EventDecoder decoder, Intake intake, RegisteredClusters clusters, StoredStarts knownStarts,
            CommittedStarts starts, ConsumerWaitingStarts waiting,
            Registrations registrations, DeadLetters deadLetters, IngestMeters meters) {
    }

    private final Parts parts;
    private final EventEncoder encoder = new EventEncoder();
    /** Failed tries of registrations whose failure is of no known kind, by position. */
    private final Map<String, Integer> registrationTries = new HashMap<>();
    /** Facts of the batch being decoded left out as known to be stored. */
    private int knownInBatch;

    BatchDecoder(Parts parts) {
        this.parts = parts;
    }

    /** Decodes the records; throws (the batch is then read again) when a registration cannot be applied now. */
    Batch decode(ConsumerRecords<byte[], byte[]> records) {
        List<Share> shares = new ArrayList<>();
        Map<TopicPartition, Long> next = new HashMap<>();
        knownInBatch = 0;
        parts.clusters().newBatch();
        lookUpWriterSchemas(records);
        try {
            for (ConsumerRecord<byte[], byte[]> record : records) {
                next.put(new TopicPartition(record.topic(), record.partition()), record.offset() + 1);
                String outcome = record.topic().equals(EventTopics.REGISTRATIONS)
                        ? register(record)
                        : accept(record, shares);
                parts.meters().count(record.topic(), outcome);
            }
        } finally {
            // the letters sent before a failure are remembered as sent, so a batch read again sends none twice
            parts.deadLetters().awaitSent();
        }
        return new Batch(records.count(), shares, knownInBatch, next, parts.waiting().takeChanges());
    }

    /**
     * Looks up the writer schemas of the batch's registry-framed records before any record is dead-lettered: when the
     * schema registry is away this throws, and the batch is read again later (after a pause) without having sent
     * anything, so no event is lost.
     */
    private void lookUpWriterSchemas(ConsumerRecords<byte[], byte[]> records) {
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (!record.topic().equals(EventTopics.REGISTRATIONS)) {
                parts.decoder().lookUpWriterSchema(record.headers(), record.value());
            }
        }
    }

    /** One event record through the {@link Intake}: dead-lettered, kept for admission, or its facts batched. */
    private String accept(ConsumerRecord<byte[], byte[]> record, List<Share> shares) {
        Intake.Outcome outcome = parts.intake()
                .accept(parts.decoder().decode(record.topic(), record.headers(), record.value()));
        if (outcome instanceof Intake.Rejected rejected) {
            return deadLetter(record, rejected.code(), rejected.reason());
        }
        if (outcome instanceof Intake.Admission admission) {
            FairledgerEvent event = admission.event();
            // a registry-framed record is kept in single-object encoding, which reads without the registry
            boolean framed = EventDecoder.isRegistryFramed(record.headers(), record.value());
            shares.add(new Share(record, List.of(), new AdmissionRecord(event.cluster(), event.eventId(),
                    event.eventTime().toEpochMilli(), event.getClass().getSimpleName(),
                    framed ? EventDecoder.AVRO : contentType(record),
                    framed ? encoder.toAvro(event) : record.value())));
            return "admission";
        }
        if (outcome instanceof Intake.Waiting w) {
            Optional<WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>>> refused = parts.waiting()
                    .hold(w.start(), record);
            String result = refused.isEmpty()
                    ? "waiting"
                    : deadLetter(record, WaitingStarts.CODE, refused.get().reason());
            expire(w.event().cluster(), w.start().at());
            return result;
        }
        Intake.Facts accepted = (Intake.Facts) outcome;
        parts.knownStarts().saw(accepted.event(), accepted.facts());
        List<LedgerFact> all = new ArrayList<>(accepted.facts());
        if (accepted.resourced()) {
            all.addAll(parts.waiting().release(accepted.facts()));
        }
        expire(accepted.event().cluster(), accepted.event().eventTime().toEpochMilli());
        List<SourcedFact> facts = new ArrayList<>(all.size());
        for (LedgerFact fact : all) {
            if (parts.starts().known(fact)) {
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

    /** The starts waiting for their resources that the cluster's watermark passes now: dead letters. */
    private void expire(String clusterId, long eventTime) {
        for (WaitingStarts.Expired<ConsumerRecord<byte[], byte[]>> e : parts.waiting().advance(clusterId, eventTime)) {
            deadLetter(e.source(), WaitingStarts.CODE, e.reason());
        }
    }

    private String register(ConsumerRecord<byte[], byte[]> record) {
        String position = record.topic() + '-' + record.partition() + '@' + record.offset();
        String reason;
        try {
            reason = parts.registrations().apply(record.value());
            registrationTries.remove(position);
        } catch (RuntimeException e) {
            reason = refusal(position, e);
        }
        if (reason == null) {
            return "applied";
        }
        return deadLetter(record, reason.substring(0, reason.indexOf(':')), reason);
    }

    /** The dead-letter reason of a registration the database failed to apply, or rethrows to read the batch again. */
    private String refusal(String position, RuntimeException failure) {
        StoreFailures.Kind kind = StoreFailures.of(failure);
        if (kind == StoreFailures.Kind.UNKNOWN
                && registrationTries.merge(position, 1, Integer::sum) >= StoreFailures.TRIES) {
            registrationTries.remove(position);
            return PoisonRecords.REASON_CODE + ": failed " + StoreFailures.TRIES + " times: "
                    + StoreFailures.describe(failure);
        }
        if (kind == StoreFailures.Kind.DATA) {
            return PoisonRecords.REASON_CODE + ": " + StoreFailures.describe(failure);
        }
        throw failure;
    }

    /** @param code a stable reason code (bounded set: the metric's tag), @param reason the header's full text */
    private String deadLetter(ConsumerRecord<byte[], byte[]> record, String code, String reason) {
        if (parts.deadLetters().send(record, reason)) {
            parts.meters().deadLetter(record.topic(), code);
        }
        return "dead-letter";
    }

    private static String contentType(ConsumerRecord<byte[], byte[]> record) {
        Header header = record.headers().lastHeader(EventDecoder.CONTENT_TYPE_HEADER);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
