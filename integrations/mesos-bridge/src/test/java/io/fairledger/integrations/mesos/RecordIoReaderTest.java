package io.fairledger.integrations.mesos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

class RecordIoReaderTest {

    private static RecordIoReader reader(String stream) {
        return new RecordIoReader(new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsRecordsByTheirLengthNotByLines() throws IOException {
        RecordIoReader in = reader("20\n{\"type\":\"HEARTBEAT\"}7\n{\"a\":\n}");
        assertThat(new String(in.next(), StandardCharsets.UTF_8)).isEqualTo("{\"type\":\"HEARTBEAT\"}");
        assertThat(new String(in.next(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":\n}");
        assertThat(in.next()).as("clean end").isNull();
    }

    @Test
    void aStreamCutInsideARecordOrALengthIsAnError() {
        assertThatThrownBy(() -> reader("20\n{\"type\":").next()).isInstanceOf(EOFException.class)
                .hasMessageContaining("8 of 20 bytes");
        assertThatThrownBy(() -> reader("12").next()).isInstanceOf(EOFException.class);
        assertThatThrownBy(() -> reader("x\n{}").next()).isInstanceOf(IOException.class)
                .hasMessageContaining("not a RecordIO length");
        assertThatThrownBy(() -> reader("\n{}").next()).hasMessageContaining("bad RecordIO length");
    }
}
