package io.fairledger.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import io.fairledger.core.chain.ChainLink;
import io.fairledger.core.chain.JsonText;
import io.fairledger.core.chain.LedgerKeyFiles;
import io.fairledger.core.chain.StatementChain;

/** {@code fairledger verify}'s exit codes: 0 when the chain holds, 1 naming the period, 2 for unreadable input. */
class VerifyCommandTest {

    private static final KeyPair KEY = LedgerKeyFiles.generate();
    private static final String KID = "k1";

    @TempDir
    Path dir;

    @Test
    void exitCodes() throws Exception {
        Path keys = dir.resolve("keys.json");
        Files.writeString(keys, "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"" + KID + "\",\"x\":\""
                + LedgerKeyFiles.x(KEY.getPublic()) + "\"}]}");
        Path good = dir.resolve("good.json");
        Files.writeString(good, download("1.25"));
        StringWriter out = new StringWriter();
        assertThat(run(good, keys, out)).isZero();
        assertThat(out.toString()).contains("1 closed period(s) hold");

        Path changed = dir.resolve("changed.json");
        Files.writeString(changed, download("1.25").replace("\"totalCharge\":1.25", "\"totalCharge\":1.26"));
        out = new StringWriter();
        assertThat(run(changed, keys, out)).isEqualTo(VerifyCommand.BROKEN);
        assertThat(out.toString()).startsWith("period p0: hash: ");

        Path notJson = dir.resolve("not.json");
        Files.writeString(notJson, "[{\"period\":");
        assertThat(run(notJson, keys, new StringWriter())).isEqualTo(VerifyCommand.BAD_INPUT);
        assertThat(run(dir.resolve("missing.json"), keys, new StringWriter())).isEqualTo(VerifyCommand.BAD_INPUT);
        Files.write(notJson, new byte[]{'[', (byte) 0xff, ']'});
        assertThat(run(notJson, keys, new StringWriter())).as("not UTF-8").isEqualTo(VerifyCommand.BAD_INPUT);
        assertThat(run(good, good, new StringWriter())).as("not a JWK set").isEqualTo(VerifyCommand.BAD_INPUT);
    }

    /** One closed period p0 with {@code total}, chained from the genesis value, as the server writes it. */
    private static String download(String total) {
        @SuppressWarnings("unchecked")
        Map<String, Object> statement = (Map<String, Object>) JsonText.parse("{\"cluster\":\"c\",\"period\":\"p0\","
                + "\"state\":\"closed\",\"totalCharge\":" + total + ",\"lines\":[]}");
        ChainLink link = StatementChain.link(1, StatementChain.GENESIS, statement, KEY.getPrivate(), KID);
        return "[{\"cluster\":\"c\",\"period\":\"p0\",\"state\":\"closed\",\"totalCharge\":" + total + ",\"lines\":[],"
                + "\"chain\":{\"sequence\":1,\"previous\":\"" + link.previous() + "\",\"hash\":\"" + link.hash()
                + "\",\"signature\":\"" + link.signature() + "\",\"keyId\":\"" + KID + "\"}}]";
    }

    private static int run(Path statements, Path keys, StringWriter out) {
        CommandLine command = new CommandLine(new VerifyCommand());
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(new StringWriter(), true));
        return command.execute("--statements", statements.toString(), "--keys", keys.toString());
    }
}
