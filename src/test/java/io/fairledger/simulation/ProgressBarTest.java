package io.fairledger.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress bar: drawn only on a terminal, with rate and time left. */
class ProgressBarTest {

    @Test
    void aDescriptorIsATerminalOnlyWhenItLinksToATerminalDevice(@TempDir Path dir) throws Exception {
        Path log = Files.createFile(dir.resolve("stderr.log"));
        assertThat(ProgressBar.isTerminal(Files.createSymbolicLink(dir.resolve("file"), log))).isFalse();
        assertThat(ProgressBar.isTerminal(Files.createSymbolicLink(dir.resolve("pipe"), Path.of("pipe:[4711]"))))
                .isFalse();
        assertThat(ProgressBar.isTerminal(Files.createSymbolicLink(dir.resolve("pts"), Path.of("/dev/pts/3"))))
                .isTrue();
        assertThat(ProgressBar.isTerminal(Files.createSymbolicLink(dir.resolve("tty"), Path.of("/dev/tty1"))))
                .isTrue();
        assertThat(ProgressBar.isTerminal(dir.resolve("absent"))).isFalse();
        assertThat(ProgressBar.isTerminal(log)).as("not a link").isFalse();
    }

    @Test
    void nothingIsWrittenWhenStderrIsNotATerminal() {
        // the test JVM's stderr is the pipe to its launcher, never a terminal
        assertThat(ProgressBar.stderrIsTerminal()).isFalse();
        StringWriter err = new StringWriter();
        ProgressBar bar = ProgressBar.onStderr(new PrintWriter(err), false, 10, "events");
        assertThat(bar.enabled()).isFalse();
        for (int i = 0; i < 10; i++) {
            bar.advance(1);
        }
        bar.finish();
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void theLineShowsProgressRateAndTimeLeft() {
        assertThat(ProgressBar.line(250, 1000, "events", 5.0)).isEqualTo(
                "\r[#######.......................]  25% 250/1,000 events 50/s ETA 0:00:15");
        assertThat(ProgressBar.line(0, 1000, "jobs", 0.0)).endsWith("0/s ETA --:--:--");
        assertThat(ProgressBar.line(1000, 1000, "bytes", 2.0)).contains("100%").endsWith("ETA 0:00:00");
    }

    @Test
    void anEnabledBarDrawsOnItsWriterAndEndsItsLine() {
        StringWriter err = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(err), true, 4, "events");
        bar.advance(4);
        bar.finish();
        assertThat(err.toString()).startsWith("\r[").contains("4/4 events").endsWith(System.lineSeparator());
    }
}
