package io.fairledger.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.junit.jupiter.api.Test;

/** Which failures are PostgreSQL being unavailable (503) rather than an unexpected fault (500). */
class DatabaseUnavailableTest {

    @Test
    void connectionFailuresAnywhereInTheCauseChainAreUnavailability() {
        assertThat(DatabaseUnavailable.causes(new SQLException("Connection to 127.0.0.1:5432 refused", "08001")))
                .isTrue();
        assertThat(DatabaseUnavailable.causes(new IllegalStateException("commit failed",
                new RuntimeException(new SQLException("I/O error", "08006"))))).isTrue();
        assertThat(DatabaseUnavailable.causes(new SQLException("the database system is shutting down", "57P03")))
                .isTrue();
        assertThat(DatabaseUnavailable.causes(new SQLException("too many clients", "53300"))).isTrue();
        assertThat(DatabaseUnavailable.causes(
                new SQLTransientConnectionException("Acquisition timeout while waiting for new connection")))
                .isTrue();
    }

    @Test
    void otherDatabaseErrorsAndOtherFailuresAreNot() {
        assertThat(DatabaseUnavailable.causes(new SQLException("duplicate key", "23505"))).isFalse();
        assertThat(DatabaseUnavailable.causes(new SQLException("invalid byte sequence", "22021"))).isFalse();
        assertThat(DatabaseUnavailable.causes(new SQLException("no state"))).isFalse();
        assertThat(DatabaseUnavailable.causes(new IllegalArgumentException("bad"))).isFalse();
    }

    @Test
    void theAnswerNamesNoAddress() {
        assertThat(DatabaseUnavailable.notReady().getMessage()).doesNotContain(":").contains("unavailable");
    }
}
