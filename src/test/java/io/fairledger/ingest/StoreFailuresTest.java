package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;

/** The classes of store failures, from the SQLSTATE wherever it sits among the causes. */
class StoreFailuresTest {

    @Test
    void theSqlStateDecides() {
        assertThat(StoreFailures.of(new SQLException("nul", "22021"))).isEqualTo(StoreFailures.Kind.DATA);
        assertThat(StoreFailures.of(new SQLException("check", "23514"))).isEqualTo(StoreFailures.Kind.DATA);
        assertThat(StoreFailures.of(new SQLException("refused", "08001"))).isEqualTo(StoreFailures.Kind.UNAVAILABLE);
        assertThat(StoreFailures.of(new SQLException("shutdown", "57P01")))
                .isEqualTo(StoreFailures.Kind.UNAVAILABLE);
        assertThat(StoreFailures.of(new SQLException("no connection in the pool")))
                .isEqualTo(StoreFailures.Kind.UNAVAILABLE);
        assertThat(StoreFailures.of(new SQLException("raised by a trigger", "P0001")))
                .isEqualTo(StoreFailures.Kind.UNKNOWN);
        assertThat(StoreFailures.of(new IllegalStateException("a bug"))).isEqualTo(StoreFailures.Kind.UNKNOWN);
    }

    @Test
    void aWrappedSqlExceptionIsFound() {
        RuntimeException wrapped = new RuntimeException("could not execute statement",
                new SQLException("ERROR: invalid byte sequence\n  Where: line 1", "22021"));
        assertThat(StoreFailures.of(wrapped)).isEqualTo(StoreFailures.Kind.DATA);
        assertThat(StoreFailures.describe(wrapped)).isEqualTo("SQLSTATE 22021: ERROR: invalid byte sequence");
    }
}
