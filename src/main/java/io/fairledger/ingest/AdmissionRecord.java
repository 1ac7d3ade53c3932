package io.fairledger.ingest;

/**
 * A job or workflow record the intake keeps for the admission service, stored in the batch's transaction by the
 * {@link AdmissionRecordWriter} the admission package provides.
 */
public record AdmissionRecord(String clusterId, String eventId, long eventTimeMs, String kind, String contentType,
        byte[] payload) {
}
