package io.fairledger.ingest.schema;

/** How a job ended; {@link #UNKNOWN} also stands for an outcome added in a later schema version. */
public enum JobOutcome {
    SUCCEEDED, FAILED, KILLED, UNKNOWN
}
