package io.fairledger.ingest;

import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

import io.fairledger.observability.MetricNames;

/**
 * The commit side of the consumer: one committer thread writes batch n ({@link BatchStore}: facts, admission records,
 * waiting starts and offsets in one transaction) while the consumer thread decodes batch n+1, which is handed over only once batch n
 * is committed. A record the database refuses ({@link PoisonRecords}) is dead-lettered and the rest committed. A batch
 * that fails for a reason of no known kind ({@link StoreFailures}) is tried {@link StoreFailures#TRIES} times in a row
 * before its lone failing records are dead-lettered; the database away never counts as a try.
 */
final class CommitPipeline {

    private final BatchStore store;
    private final String groupId;
    private final DeadLetters deadLetters;
    private final MeterRegistry meters;
    private final Timer commitTimer;
    /** Called on the consumer thread with each batch once it is committed. */
    private final Consumer<Batch> onCommitted;
    private final ExecutorService committer = Executors.newSingleThreadExecutor(r -> new Thread(r,
            "fairledger-commit"));
    /** The commit of the last batch handed over, or null when it has been awaited. */
    private Future<Batch> inFlight;
    /** Why the last batch was not committed, until it is read again. */
    private Throwable failure;
    /** Batches in a row that failed for a reason of no known kind. */
    private int unknownFailures;

    CommitPipeline(BatchStore store, String groupId, DeadLetters deadLetters, MeterRegistry meters,
            Consumer<Batch> onCommitted) {
        this.store = store;
        this.groupId = groupId;
        this.deadLetters = deadLetters;
        this.meters = meters;
        this.onCommitted = onCommitted;
        this.commitTimer = Timer.builder(MetricNames.INGEST_BATCH_COMMIT).publishPercentileHistogram()
                .register(meters);
    }

    /** Hands a decoded batch to the committer thread; {@link #previousCommitted()} must have been true. */
    void submit(Batch batch) {
        boolean lastTry = unknownFailures >= StoreFailures.TRIES - 1;
        inFlight = committer.submit(() -> commit(batch, lastTry));
    }

    /**
     * Waits for the commit in flight, if any; false when it (or an earlier batch not yet read again) failed. Consumer
     * thread only.
     */
    boolean previousCommitted() throws InterruptedException {
        if (inFlight != null) {
            try {
                Batch committed = inFlight.get();
                unknownFailures = 0;
                onCommitted.accept(committed);
            } catch (ExecutionException e) {
                failed(e.getCause());
            } finally {
                inFlight = null;
            }
        }
        return failure == null;
    }

    /** A batch could not be decoded (a registration not applied, the schema registry away): it is read again. */
    void notDecoded(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
    }

    private void failed(Throwable cause) {
        if (failure == null) {
            failure = cause;
            if (StoreFailures.of(cause) == StoreFailures.Kind.UNKNOWN) {
                unknownFailures++;
            }
        }
    }

    /** Why the batch is read again, and forgets it: the batch read again starts afresh. */
    Throwable takeFailure() {
        Throwable cause = failure;
        failure = null;
        return cause;
    }

    void shutdown() {
        committer.shutdown();
    }

    /**
     * On the committer thread: the batch's facts, records and offsets in one transaction. When the database refuses
     * some record of it ({@link PoisonRecords}), those records are dead-lettered with its reason and the rest is
     * committed with the same offsets; returns the batch as committed.
     */
    private Batch commit(Batch batch, boolean lastTry) throws SQLException {
        Timer.Sample sample = Timer.start(meters);
        Map<TopicPartition, Long> next = batch.next();
        PoisonRecords.Committed done = PoisonRecords.commit(batch.shares(),
                (facts, admissions) -> store.commit(groupId, facts, admissions, batch.waiting(), next), store::trial,
                this::refused,
                lastTry);
        sample.stop(commitTimer);
        Batch committed = new Batch(batch.records(), done.kept(), batch.known(), next, batch.waiting());
        int duplicates = committed.facts().size() - done.inserted() + batch.known();
        if (duplicates > 0) {
            meters.counter(MetricNames.INGEST_EVENTS, MetricNames.TOPIC, "all", MetricNames.OUTCOME, "duplicate")
                    .increment(duplicates);
        }
        return committed;
    }

    /** On the committer thread: a record the database refused goes to the dead letters before the batch commits. */
    private void refused(ConsumerRecord<byte[], byte[]> record, String reason) {
        if (deadLetters.deliver(record, reason)) {
            meters.counter(MetricNames.INGEST_DEAD_LETTERS, MetricNames.TOPIC, record.topic(), MetricNames.REASON,
                    PoisonRecords.REASON_CODE).increment();
        }
    }
}
