package io.fairledger.standalone;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The claim of one running server on a standalone data directory: an operating-system lock on
 * {@code <data-dir>/fairledger.lock}, which also holds the owner's pid for the message a second server prints. The
 * operating system releases the lock when the owner exits in any way, {@code kill -9} included, so whatever a lockable
 * directory still has running (a PostgreSQL whose server crashed) belongs to no live server. One lock per directory
 * per JVM: on Linux, closing any channel to the file (as a refused second attempt in the same JVM does) drops the
 * process's lock on it.
 */
public final class DataDirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "fairledger.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @throws StandaloneStartupException when another live server holds {@code dataDir} */
    public static DataDirectoryLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE_NAME);
        FileChannel channel = null;
        try {
            Files.createDirectories(dataDir);
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock = tryLock(channel);
            if (lock == null) {
                String owner = Files.readString(file, StandardCharsets.UTF_8).trim();
                channel.close();
                throw new StandaloneStartupException("the data directory " + dataDir.toAbsolutePath()
                        + " is in use by a running fairledger server" + (owner.isEmpty() ? "" : " (pid " + owner + ")")
                        + ". Stop that server first, or give this one another --data-dir.");
            }
            channel.truncate(0);
            channel.write(
                    ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.UTF_8)),
                    0);
            channel.force(false);
            return new DataDirectoryLock(channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new StandaloneStartupException("cannot lock the data directory " + dataDir.toAbsolutePath() + " ("
                    + file + "): " + e.getMessage(), e);
        }
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            // held by this very JVM
            return null;
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the open failed or the lock was refused: nothing is held
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the lock dies with the channel or the process anyway
        }
    }
}
