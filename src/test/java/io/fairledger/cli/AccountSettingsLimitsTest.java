package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fairledger account} holds its {@code --config} to the ranges the server holds ledger settings to. */
class AccountSettingsLimitsTest {

    @TempDir
    Path dir;

    @Test
    void oneSecondPeriodsAreRefusedOfflineNamingTheMember() throws Exception {
        Path config = Files.writeString(dir.resolve("settings.json"), """
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "period":{"length":"PT1S"}}""");
        Path events = Files.writeString(dir.resolve("events.jsonl"), "");
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new AccountCommand());
        cli.setErr(new PrintWriter(err));
        int exit = cli.execute("--events", events.toString(), "--config", config.toString(), "--out",
                dir.resolve("out").toString(), "--quiet");
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("period.length").contains("PT1M");
    }
}
