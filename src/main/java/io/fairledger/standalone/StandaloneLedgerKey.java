package io.fairledger.standalone;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.jboss.logging.Logger;

import io.fairledger.core.chain.LedgerKeyFiles;

/**
 * Standalone mode's ledger key (docs/billing.md, "Verifying closed statements"): unless
 * {@code fairledger.ledger-key.file} is set, {@code ledger-key.pem} in the data directory, made on first start
 * (readable by its owner only) and kept with the data from then on.
 */
final class StandaloneLedgerKey {

    private static final Logger LOG = Logger.getLogger(StandaloneLedgerKey.class);
    static final String FILE_NAME = "ledger-key.pem";

    private StandaloneLedgerKey() {
    }

    /** Makes the key in {@code dataDir} if needed and points {@code fairledger.ledger-key.file} at it. */
    static void provide(Path dataDir) {
        if (StartupSettings.ledgerKeyConfigured()) {
            return;
        }
        Path file = dataDir.resolve(FILE_NAME).toAbsolutePath();
        if (!Files.exists(file)) {
            try {
                Files.createDirectories(dataDir);
                if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                    Files.createFile(file, PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
                }
                Files.writeString(file, LedgerKeyFiles.pem(LedgerKeyFiles.generate().getPrivate()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write the ledger key " + file, e);
            }
            LOG.infof("Standalone: made the ledger key %s, which signs every closed statement; back it up with the "
                    + "data (docs/billing.md)", file);
        }
        StandaloneConfigSource.put(StartupSettings.LEDGER_KEY_FILE, file.toString());
    }
}
