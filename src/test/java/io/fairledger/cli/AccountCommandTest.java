package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import io.fairledger.testsupport.YarnWorkload;

/**
 * {@code fairledger account} on a file with a line that is not UTF-8, or a queue deeper than a tenant may be: a dead
 * letter, as on the server.
 */
class AccountCommandTest {

    private static final Instant START = Instant.parse("2026-11-20T00:00:00Z");

    @Test
    void aLineThatIsNotUtf8IsAnUndecodableDeadLetterNotAStackTrace(@TempDir Path dir) throws Exception {
        List<String> lines = YarnWorkload.lines("acct-utf8", START, 3, 2, 7);
        ByteArrayOutputStream events = new ByteArrayOutputStream();
        events.write((lines.get(0) + "\n").getBytes(StandardCharsets.UTF_8));
        // a lone continuation byte and an over-long encoding: no UTF-8 decoder accepts either
        events.write(new byte[]{'{', '"', 'x', '"', ':', '"', (byte) 0x80, (byte) 0xC0, (byte) 0xAF, '"', '}', '\n'});
        for (String line : lines.subList(1, lines.size())) {
            events.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        }
        Files.write(dir.resolve("events.jsonl"), events.toByteArray());
        Files.writeString(dir.resolve("settings.json"), YarnWorkload.settings(START, 2));
        StringWriter err = new StringWriter();
        StringWriter out = new StringWriter();

        int exit = new CommandLine(new AccountCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("--events", dir.resolve("events.jsonl").toString(), "--config",
                        dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(), "--quiet");

        assertThat(exit).as(err.toString()).isZero();
        assertThat(err.toString()).doesNotContain("Exception");
        List<String> deadLetters = Files.readAllLines(dir.resolve("out").resolve("dead-letters.jsonl"));
        assertThat(deadLetters).singleElement().asString().contains("\"line\":2", "\"reason\":\"undecodable: ");
        assertThat(out.toString()).contains("1 dead letter(s)");
    }

    @Test
    void aQueueDeeperThanATenantMayBeIsADeadLetterAsOnTheServer(@TempDir Path dir) throws Exception {
        List<String> lines = YarnWorkload.lines("acct-deep", START, 3, 2, 7);
        String attack = lines.get(0).replaceFirst("\"queue\":\"[^\"]*\"",
                "\"queue\":\"root" + ".q".repeat(1_900) + "\"");
        Files.writeString(dir.resolve("events.jsonl"), attack + "\n" + String.join("\n", lines.subList(1,
                lines.size())) + "\n");
        Files.writeString(dir.resolve("settings.json"), YarnWorkload.settings(START, 2));
        StringWriter err = new StringWriter();

        int exit = new CommandLine(new AccountCommand()).setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err)).execute("--events", dir.resolve("events.jsonl").toString(), "--config",
                        dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(), "--quiet");

        assertThat(exit).as(err.toString()).isZero();
        List<String> deadLetters = Files.readAllLines(dir.resolve("out").resolve("dead-letters.jsonl"));
        assertThat(deadLetters).singleElement().asString().contains("\"line\":1",
                "\"reason\":\"invalid-field: queue: must be at most 1024 characters, got 3804\"");
    }
}
