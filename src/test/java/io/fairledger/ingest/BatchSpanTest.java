package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.facts.LedgerFact;
import io.fairledger.facts.SourcedFact;
import io.fairledger.ingest.PoisonRecords.Share;

/**
 * The batch span's life on the consumer thread ({@link BatchTraces}), with a real SDK and an in-memory exporter: a
 * batch committed ends its span with its clusters, records and stored facts; a batch read again ends with ERROR and
 * the kind of failure only; with the SDK disabled no span is recorded at all.
 */
class BatchSpanTest {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();
    private final SdkTracerProvider provider = SdkTracerProvider.builder()
            .addSpanProcessor(SimpleSpanProcessor.create(exported)).build();

    @Test
    void aCommittedBatchEndsItsSpanWithClustersRecordsAndStoredFacts() {
        BatchTraces traces = BatchTraces.of(provider.get("test"), false);
        Batch batch = batch();
        traces.polled(3);
        traces.decoded(batch);
        traces.handedOver();
        assertThat(exported.getFinishedSpanItems()).as("not ended before its commit").isEmpty();
        traces.committed(batch);

        SpanData span = exported.getFinishedSpanItems().get(0);
        assertThat(span.getName()).isEqualTo(BatchTraces.NAME);
        assertThat(span.getAttributes().get(BatchTraces.CLUSTERS)).containsExactly("a", "b");
        assertThat(span.getAttributes().get(BatchTraces.RECORDS)).isEqualTo(3);
        assertThat(span.getAttributes().get(BatchTraces.STORED_FACTS)).isEqualTo(2);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void aBatchReadAgainEndsWithErrorAndTheKindOfFailureOnly() {
        BatchTraces traces = BatchTraces.of(provider.get("test"), false);
        traces.polled(3);
        traces.decoded(batch());
        traces.handedOver();
        traces.polled(1);
        traces.notStored(new IllegalStateException("a value quoting a record: secret"));

        assertThat(exported.getFinishedSpanItems()).hasSize(2).allSatisfy(span -> {
            assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
            assertThat(span.getStatus().getDescription()).startsWith("not stored (").doesNotContain("secret");
        });
    }

    @Test
    void withTheSdkDisabledNoSpanIsRecorded() {
        BatchTraces traces = BatchTraces.of(provider.get("test"), true);
        traces.polled(3);
        traces.decoded(batch());
        traces.handedOver();
        traces.committed(batch());
        assertThat(exported.getFinishedSpanItems()).isEmpty();
    }

    /** Three records: two facts of clusters b and a, and a job record of a. */
    private static Batch batch() {
        ConsumerRecord<byte[], byte[]> record = new ConsumerRecord<>("fairledger.demand", 0, 7, null, new byte[0]);
        List<Share> shares = List.of(new Share(record, List.of(fact("b"), fact("a")), null), new Share(record,
                List.of(), new AdmissionRecord("a", "j1", 0, "JobSubmitted", null, new byte[0])));
        return new Batch(3, shares, 0, Map.of(new TopicPartition("fairledger.demand", 0), 8L),
                new WaitingStartTable.Changes());
    }

    private static SourcedFact fact(String cluster) {
        return new SourcedFact(new LedgerFact.Demand(cluster, "root.a", "app", ResourceVector.ZERO, 0, "event:e"),
                "e", "fairledger.demand", 0, 7);
    }
}
