package io.fairledger.ingest;

import java.util.List;
import java.util.TreeSet;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.TracerProvider;

import io.fairledger.ingest.PoisonRecords.Share;

/**
 * One OpenTelemetry span per polled batch, {@value #NAME}: from before decoding to the end of its commit to
 * PostgreSQL (on the committer thread), with the events {@code decoded} and {@code handed over} between, and the
 * attributes {@link #CLUSTERS}, {@link #RECORDS} and {@link #STORED_FACTS}. A batch that is not stored (read again)
 * ends with the status ERROR and the kind of failure ({@link StoreFailures}). With tracing off (docs/deployment.md,
 * "Traces") the tracer is a no-op and nothing is counted. Consumer thread only: the batch being decoded, and the one
 * handed over to the committer.
 */
final class BatchTraces {

    static final String NAME = "fairledger.ingest.batch";
    /** The clusters of the batch's stored events, sorted. */
    static final AttributeKey<List<String>> CLUSTERS = AttributeKey.stringArrayKey("fairledger.batch.clusters");
    /** The records polled. */
    static final AttributeKey<Long> RECORDS = AttributeKey.longKey("fairledger.batch.records");
    /** The facts committed with the batch (duplicates included, dead letters not). */
    static final AttributeKey<Long> STORED_FACTS = AttributeKey.longKey("fairledger.batch.stored_facts");

    private final Tracer tracer;
    private Span decoding;
    private Span committing;

    private BatchTraces(Tracer tracer) {
        this.tracer = tracer;
    }

    /**
     * With {@code tracer}, or with a no-op one when {@code quarkus.otel.sdk.disabled}: Quarkus' SDK, disabled, still
     * records spans (and exports none), which would cost every batch its span and its cluster set for nothing.
     */
    static BatchTraces of(Tracer tracer, boolean sdkDisabled) {
        return new BatchTraces(sdkDisabled ? TracerProvider.noop().get(NAME) : tracer);
    }

    /** A batch was polled: its span starts. */
    void polled(int records) {
        decoding = tracer.spanBuilder(NAME).setSpanKind(SpanKind.CONSUMER).startSpan().setAttribute(RECORDS,
                (long) records);
    }

    /** The batch was decoded. */
    void decoded(Batch batch) {
        if (decoding.isRecording()) {
            TreeSet<String> clusters = new TreeSet<>();
            for (Share share : batch.shares()) {
                share.facts().forEach(f -> clusters.add(f.fact().clusterId()));
                if (share.admission() != null) {
                    clusters.add(share.admission().clusterId());
                }
            }
            decoding.setAttribute(CLUSTERS, List.copyOf(clusters)).addEvent("decoded");
        }
    }

    /** The decoded batch went to the committer thread. */
    void handedOver() {
        committing = decoding.addEvent("handed over");
        decoding = null;
    }

    /** The batch handed over is committed: its span ends. */
    void committed(Batch committed) {
        if (committing != null) {
            committing.setAttribute(STORED_FACTS, (long) committed.facts().size()).end();
            committing = null;
        }
    }

    /** Neither the batch handed over nor the one decoded is stored: both are read again. */
    void notStored(Throwable cause) {
        for (Span span : new Span[]{committing, decoding}) {
            if (span != null) {
                // the kind only: a failure's message may quote a record
                span.setStatus(StatusCode.ERROR, "not stored (" + StoreFailures.of(cause) + "); read again").end();
            }
        }
        committing = null;
        decoding = null;
    }
}
