package io.fairledger.standalone;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;

import org.junit.jupiter.api.Test;

/**
 * The management port {@code serve} settles before anything starts: the default moves in standalone mode when it is
 * taken; a port given is used or refused with the reason; strange values are refused.
 */
class ManagementPortTest {

    private static final int API = 8080;
    private static final int KAFKA = 9092;
    private static final IntSupplier FREE = () -> 41_000;

    private static IntPredicate takenAre(Integer... ports) {
        Set<Integer> taken = Set.of(ports);
        return port -> !taken.contains(port);
    }

    @Test
    void theDefaultIsUsedWhenFree() {
        ManagementPort port = ManagementPort.choose(null, "--management-port", API, KAFKA, true, takenAre(), FREE);
        assertThat(port.port()).isEqualTo(9000);
        assertThat(port.notice()).isNull();
    }

    @Test
    void standaloneMovesATakenDefaultAndSaysWhere() {
        ManagementPort port = ManagementPort.choose(null, "--management-port", API, KAFKA, true, takenAre(9000),
                FREE);
        assertThat(port.port()).isEqualTo(41_000);
        assertThat(port.notice()).isEqualTo("port 9000 is taken: health and metrics are on port 41000 instead "
                + "(--management-port sets it)");
    }

    @Test
    void theDefaultMovesOffTheApiPortAndTheBrokerPort() {
        assertThat(ManagementPort.choose(null, "--management-port", 9000, KAFKA, true, takenAre(), FREE).port())
                .isEqualTo(41_000);
        assertThat(ManagementPort.choose(null, "--management-port", API, 9000, true, takenAre(), FREE).port())
                .isEqualTo(41_000);
    }

    @Test
    void aPickedPortIsNeverTheApiPort() {
        int[] offers = {API, KAFKA, 41_001};
        int[] next = {0};
        ManagementPort port = ManagementPort.choose(0, "--management-port", API, KAFKA, true, takenAre(),
                () -> offers[next[0]++]);
        assertThat(port.port()).isEqualTo(41_001);
    }

    @Test
    void theProductionModeRefusesATakenDefault() {
        assertThatThrownBy(() -> ManagementPort.choose(null, "--management-port", API, 0, false, takenAre(9000),
                FREE)).isInstanceOf(StandaloneStartupException.class)
                .hasMessage("the management port 9000 (health and metrics) is in use: free it or give another "
                        + "with --management-port; nothing was started");
    }

    @Test
    void aPortGivenIsUsedOrRefusedWhenTaken() {
        assertThat(ManagementPort.choose(9100, "--management-port", API, KAFKA, true, takenAre(9000), FREE).port())
                .isEqualTo(9100);
        assertThatThrownBy(() -> ManagementPort.choose(9100, "quarkus.management.port", API, KAFKA, true,
                takenAre(9100), FREE)).hasMessage("quarkus.management.port 9100 (health and metrics) is in use: "
                        + "free it or give another with --management-port; nothing was started");
    }

    @Test
    void zeroPicksAFreePortAndSaysWhich() {
        ManagementPort port = ManagementPort.choose(0, "--management-port", API, KAFKA, true, takenAre(), FREE);
        assertThat(port.port()).isEqualTo(41_000);
        assertThat(port.notice()).isEqualTo("health and metrics are on port 41000 (--management-port 0)");
    }

    @Test
    void strangeValuesAreRefused() {
        for (int notAPort : new int[]{65_536, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> ManagementPort.choose(notAPort, "--management-port", API, KAFKA, true,
                    takenAre(), FREE)).hasMessage("--management-port " + notAPort
                            + " is not a port: give 1 to 65535, or 0 for a free one");
        }
        assertThat(ManagementPort.choose(65_535, "--management-port", API, KAFKA, true, takenAre(), FREE).port())
                .isEqualTo(65_535);
        assertThat(ManagementPort.choose(1, "--management-port", API, KAFKA, true, takenAre(), FREE).port())
                .isEqualTo(1);
        assertThatThrownBy(() -> ManagementPort.choose(API, "--management-port", API, KAFKA, true, takenAre(),
                FREE)).hasMessage("--management-port 8080 is the API's port (quarkus.http.port): health and metrics "
                        + "need a port of their own");
        assertThatThrownBy(() -> ManagementPort.choose(KAFKA, "--management-port", API, KAFKA, true, takenAre(),
                FREE)).hasMessageStartingWith("--management-port 9092 is the embedded Kafka broker's port");
    }

    @Test
    void aListeningSocketMakesItsPortTaken() throws IOException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        try (ServerSocket socket = new ServerSocket(0, 1, loopback)) {
            assertThat(ManagementPort.isFree(loopback, socket.getLocalPort())).isFalse();
        }
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, loopback)) {
            closed = socket.getLocalPort();
        }
        assertThat(ManagementPort.isFree(loopback, closed)).isTrue();
    }
}
