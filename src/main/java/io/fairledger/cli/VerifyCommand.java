package io.fairledger.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fairledger.core.chain.ChainVerifier;
import io.fairledger.core.chain.JsonText;
import io.fairledger.core.chain.LedgerKeyFiles;

/**
 * {@code fairledger verify --statements FILE --keys FILE}: checks a statements download ({@code GET
 * .../statements}, JSON) against a JWK set ({@code GET /api/v1/ledger-keys}) offline, with the server's own check
 * ({@link ChainVerifier}; docs/billing.md, "Verifying closed statements"). Exit 0 when every closed statement's hash,
 * link and signature holds, 1 naming the first period that does not and why, 2 for unreadable input.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, description = "Check the hashes, links and signatures of a downloaded set of closed statements against the ledger's public keys.")
public final class VerifyCommand implements Callable<Integer> {

    /** Exit code: a period does not hold. */
    public static final int BROKEN = 1;
    /** Exit code for unreadable input, as picocli uses for bad options. */
    public static final int BAD_INPUT = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--statements", required = true, paramLabel = "FILE", description = "A statements download: the JSON array GET /api/v1/admin/clusters/{id}/statements answers, from the cluster's first period.")
    Path statements;

    @Option(names = "--keys", required = true, paramLabel = "FILE", description = "The ledger's public keys: the JWK set GET /api/v1/ledger-keys answers.")
    Path keys;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<?> download;
        Map<String, PublicKey> published;
        try {
            if (!(JsonText.parse(read(statements)) instanceof List<?> list)) {
                throw new IllegalArgumentException("not a JSON array of statements");
            }
            download = list;
        } catch (IOException | IllegalArgumentException e) {
            err.println("fairledger verify: " + statements + ": " + e.getMessage());
            return BAD_INPUT;
        }
        try {
            published = LedgerKeyFiles.readJwkSet(read(keys));
        } catch (IOException | IllegalArgumentException e) {
            err.println("fairledger verify: " + keys + ": " + e.getMessage());
            return BAD_INPUT;
        }
        ChainVerifier.Result result;
        try {
            result = ChainVerifier.verify(download, published);
        } catch (IllegalArgumentException e) {
            err.println("fairledger verify: " + statements + ": " + e.getMessage());
            return BAD_INPUT;
        }
        String before = result.unchained() == 0
                ? ""
                : " (" + result.unchained() + " closed before the chain existed, not checked)";
        if (result.broken().isPresent()) {
            ChainVerifier.Break b = result.broken().get();
            out.println("period " + b.period() + ": " + b.reason() + ": " + b.detail());
            out.println(result.chained() + " closed period(s) before it hold" + before);
            return BROKEN;
        }
        out.println(result.chained() + " closed period(s) hold: every hash, link and signature" + before);
        return 0;
    }

    /** {@code file} as UTF-8 text, refused when it is not UTF-8. */
    private static String read(Path file) throws IOException {
        if (!Files.isReadable(file)) {
            throw new IOException("cannot read it");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IOException("not UTF-8 text", e);
        }
    }
}
