package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import io.fairledger.testsupport.YarnWorkload;

/**
 * {@code fairledger account} under Berlin months: a registration in the middle of March gives a short March, prorated
 * under GROUP_BUY, and April is a whole month at the full price.
 */
class AccountCalendarTest {

    static final Instant REGISTERED = Instant.parse("2026-03-16T23:00:00Z");

    /** Berlin months, GROUP_BUY at 743.00 a month (an hour of March costs 1.00). */
    static String settings() {
        return YarnWorkload.settings(REGISTERED, 2).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"P1M\",\"zone\":\"Europe/Berlin\"}").replaceFirst(
                        "(?s)\"chargeback\":\\{.*?\\]\\},",
                        "\"chargeback\":{\"model\":\"GROUP_BUY\",\"costPerPeriod\":743,"
                                + "\"currency\":\"EUR\"},");
    }

    @Test
    void aMonthStartedInTheMiddleIsProratedAndTheNextIsWhole(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("events.jsonl"),
                String.join("\n", YarnWorkload.lines("acct-cal", Instant.parse("2026-03-31T21:55:00Z"), 6, 2, 3))
                        + "\n");
        Files.writeString(dir.resolve("settings.json"), settings());
        StringWriter err = new StringWriter();
        int exit = new CommandLine(new AccountCommand()).setOut(new PrintWriter(new StringWriter()))
                .setErr(new PrintWriter(err)).execute("--events", dir.resolve("events.jsonl").toString(), "--config",
                        dir.resolve("settings.json").toString(), "--out", dir.resolve("out").toString(), "--until",
                        "2026-04-30T22:00:00Z", "--quiet");

        assertThat(exit).as(err.toString()).isZero();
        JsonNode statements = new ObjectMapper().readTree(dir.resolve("out").resolve("statements.json").toFile());
        assertThat(statements).hasSize(2);
        JsonNode march = statements.get(0);
        assertThat(march.get("period").asText()).isEqualTo("2026-03");
        assertThat(march.get("start").asText()).isEqualTo("2026-03-16T23:00:00Z");
        assertThat(march.get("end").asText()).isEqualTo("2026-03-31T22:00:00Z");
        assertThat(march.get("totalCharge").decimalValue()).isEqualByComparingTo("359.00");
        assertThat(march.get("prorated").get("fraction").decimalValue()).isEqualByComparingTo("0.483176");
        JsonNode april = statements.get(1);
        assertThat(april.get("period").asText()).isEqualTo("2026-04");
        assertThat(april.get("end").asText()).isEqualTo("2026-04-30T22:00:00Z");
        assertThat(april.get("totalCharge").decimalValue()).isEqualByComparingTo("743.00");
        assertThat(april.has("prorated")).isFalse();
    }
}
