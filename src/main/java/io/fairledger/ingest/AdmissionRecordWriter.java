package io.fairledger.ingest;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Stores a batch's admission records on the batch's own connection, inside its transaction. Declared here and
 * implemented by the admission package, which owns the table: the intake depends on no admission class, and the
 * admission package (which reads the records back) depends on the intake's schema only.
 */
public interface AdmissionRecordWriter {

    /** Inserts {@code records}, skipping any already stored; does not commit. */
    void insert(Connection connection, List<AdmissionRecord> records) throws SQLException;
}
