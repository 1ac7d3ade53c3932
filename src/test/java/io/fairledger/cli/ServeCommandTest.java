package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;

import org.junit.jupiter.api.Test;

/** A server that does not start says why: the innermost cause, not Quarkus' wrapping of it. */
class ServeCommandTest {

    @Test
    void theReasonIsTheInnermostCause() {
        IllegalStateException setting = new IllegalStateException("fairledger cannot consume events: "
                + "fairledger.ingest.known-starts must be between 0 and 624268 (512 MB of heap at up to 860 bytes "
                + "each), got -1");
        assertThat(ServeCommand.reason(new RuntimeException("Failed to start quarkus", new RuntimeException(
                setting)))).isEqualTo(setting.getMessage());
        assertThat(ServeCommand.reason(setting)).isEqualTo(setting.getMessage());
        assertThat(ServeCommand.reason(new RuntimeException("wrapped", new ConnectException())))
                .isEqualTo("java.net.ConnectException");
    }
}
