package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;

/**
 * The consumer's waiting starts without a database: what a batch writes of them, and how the stored ones replace
 * those of uncommitted batches when partitions are positioned again.
 */
class ConsumerWaitingStartsTest {

    private static final long T = Instant.parse("2026-11-20T00:00:00Z").toEpochMilli();
    private static final long HOUR = Duration.ofHours(1).toMillis();
    private static final TopicPartition P0 = new TopicPartition("fairledger.mesos.tasks", 0);
    private static final TopicPartition P1 = new TopicPartition("fairledger.mesos.tasks", 1);

    /** The rows the fake table holds. */
    private final List<WaitingStartTable.Row> stored = new ArrayList<>();
    private final ConsumerWaitingStarts waiting = new ConsumerWaitingStarts(cluster -> Duration.ofHours(1),
            partitions -> stored.stream().filter(row -> partitions.contains(partition(row.record()))).toList());

    @Test
    void aStartHeldAndReleasedInOneBatchIsNeverWrittenOneHeldBeforeIsDeleted() {
        waiting.hold(start("t1", T), record(P0, 3));
        waiting.takeChanges();
        waiting.hold(start("t2", T), record(P0, 4));

        assertThat(waiting.release(List.of(resourced("t1", T), resourced("t2", T)))).hasSize(2);
        WaitingStartTable.Changes changes = waiting.takeChanges();

        assertThat(changes.held()).isEmpty();
        assertThat(changes.gone()).containsExactly(new WaitingStartTable.Position(P0, 3));
        assertThat(waiting.size()).isZero();
    }

    @Test
    void anExpiredStartIsDeletedWithTheBatchThatExpiresIt() {
        waiting.hold(start("t1", T), record(P0, 3));
        assertThat(waiting.takeChanges().held()).extracting(row -> row.record().offset()).containsExactly(3L);

        assertThat(waiting.advance("c", T + 2 * HOUR + 1)).hasSize(1);

        assertThat(waiting.takeChanges().gone()).containsExactly(new WaitingStartTable.Position(P0, 3));
    }

    @Test
    void positioningAPartitionReplacesItsStartsByTheStoredOnesAndLeavesTheOthers() throws Exception {
        ConsumerRecord<byte[], byte[]> committed = record(P0, 3);
        stored.add(new WaitingStartTable.Row(committed, start("t1", T)));
        waiting.hold(start("t1", T), committed);
        waiting.hold(start("t2", T), record(P0, 4));
        waiting.hold(start("t3", T), record(P1, 9));
        waiting.takeChanges();

        waiting.load(List.of(P0));

        assertThat(waiting.size()).isEqualTo(2);
        assertThat(waiting.release(List.of(resourced("t2", T)))).as("the uncommitted batch's start").isEmpty();
        assertThat(waiting.release(List.of(resourced("t1", T), resourced("t3", T)))).hasSize(2);
        waiting.forget(List.of(P1));
        assertThat(waiting.size()).isZero();
    }

    @Test
    void theRecordsHeadersReadBackAsWritten() {
        RecordHeaders headers = new RecordHeaders();
        headers.add("content-type", "application/json".getBytes(StandardCharsets.UTF_8));
        headers.add("none", null);
        headers.add("k".repeat(70_000), new byte[0]);

        RecordHeaders read = WaitingStartTable.decode(WaitingStartTable.encode(headers));

        assertThat(read.toArray()).hasSize(3);
        assertThat(read.lastHeader("content-type").value()).asString(StandardCharsets.UTF_8)
                .isEqualTo("application/json");
        assertThat(read.lastHeader("none").value()).isNull();
        assertThat(read.lastHeader("k".repeat(70_000)).value()).isEmpty();
    }

    private static Normaliser.Unresourced start(String task, long at) {
        return new Normaliser.Unresourced("c", task, "TASK_RUNNING", at);
    }

    private static LedgerFact resourced(String task, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted("c", task, TenantPath.parse("root.a"), "f",
                new ResourceVector(1000, 512, 0), at), LedgerFact.taskKey(task, true));
    }

    private static ConsumerRecord<byte[], byte[]> record(TopicPartition tp, long offset) {
        return new ConsumerRecord<>(tp.topic(), tp.partition(), offset, T, TimestampType.CREATE_TIME, 1, 2,
                new byte[]{'c'}, new byte[]{'{', '}'}, new RecordHeaders(), Optional.empty());
    }

    private static TopicPartition partition(ConsumerRecord<?, ?> record) {
        return new TopicPartition(record.topic(), record.partition());
    }
}
