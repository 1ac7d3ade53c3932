package io.fairledger.standalone;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The PostgreSQL server process ("postmaster") that runs on a data directory, found through the directory's
 * {@code postmaster.pid} and trusted only when the process is alive and really is a {@code postgres} serving that
 * directory: a pid file left by a crash may name a process that has since been reused for something else.
 */
final class Postmaster {

    private final ProcessHandle process;
    private final Path dataDir;

    private Postmaster(ProcessHandle process, Path dataDir) {
        this.process = process;
        this.dataDir = dataDir;
    }

    /**
     * The live PostgreSQL of {@code dataDir}, if any. A {@code postmaster.pid} naming a dead process is left for
     * PostgreSQL, which replaces it; one naming a live process that is not this directory's PostgreSQL is deleted,
     * because PostgreSQL would otherwise refuse to start ("Is another postmaster running?").
     *
     * @throws StandaloneStartupException when the process is alive but cannot be inspected
     */
    static Optional<Postmaster> find(Path dataDir) {
        Path pidFile = dataDir.resolve("postmaster.pid");
        Optional<ProcessHandle> process = readPid(pidFile).flatMap(ProcessHandle::of).filter(Postmaster::running);
        if (process.isEmpty()) {
            return Optional.empty();
        }
        ProcessHandle handle = process.get();
        if (handle.info().command().isEmpty()) {
            throw new StandaloneStartupException(pidFile + " names process " + handle.pid()
                    + ", which is running but cannot be inspected (another user's?): stop it, or remove the file "
                    + "if that process is not PostgreSQL, then start again");
        }
        if (!servesDirectory(handle, dataDir)) {
            try {
                Files.deleteIfExists(pidFile);
            } catch (IOException e) {
                throw new StandaloneStartupException("cannot remove the stale " + pidFile + ": " + e.getMessage());
            }
            return Optional.empty();
        }
        return Optional.of(new Postmaster(handle, dataDir));
    }

    private static Optional<Long> readPid(Path pidFile) {
        try {
            List<String> lines = Files.readAllLines(pidFile);
            return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).trim()));
        } catch (IOException | NumberFormatException e) {
            // absent, or being written by a starting server: nothing that can be stopped
            return Optional.empty();
        }
    }

    /** A {@code postgres} executable whose {@code -D} argument, or else working directory, is {@code dataDir}. */
    static boolean servesDirectory(ProcessHandle process, Path dataDir) {
        ProcessHandle.Info info = process.info();
        boolean postgres = info.command().map(c -> Path.of(c).getFileName().toString().equals("postgres"))
                .orElse(false);
        if (!postgres) {
            return false;
        }
        String[] args = info.arguments().orElse(new String[0]);
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("-D") && Path.of(args[i + 1]).isAbsolute()) {
                return sameFile(Path.of(args[i + 1]), dataDir);
            }
        }
        // PostgreSQL changes into its data directory (Linux shows it as /proc/<pid>/cwd)
        Path cwd = Path.of("/proc", Long.toString(process.pid()), "cwd");
        return Files.exists(cwd) && sameFile(cwd, dataDir);
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return false;
        }
    }

    long pid() {
        return process.pid();
    }

    /** Whether the server was started with {@code -p port} on its command line. */
    boolean startedWithPort(int port) {
        String[] args = process.info().arguments().orElse(new String[0]);
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("-p") && args[i + 1].equals(Integer.toString(port))) {
                return true;
            }
        }
        return false;
    }

    /** The {@code postgres} executable's path, beside which {@code pg_ctl} lies. */
    String command() {
        return process.info().command().orElseThrow();
    }

    boolean isAlive() {
        return running(process);
    }

    Path dataDir() {
        return dataDir;
    }

    /**
     * Stops the server as PostgreSQL's own shutdown modes do, each given {@code wait} before the next: smart
     * (SIGTERM: waits for sessions to end; a crashed client's sessions are already gone), fast (SIGINT: aborts open
     * transactions, still a clean checkpoint), immediate (SIGQUIT: no checkpoint, WAL replay at the next start; no
     * committed transaction is lost). Returns whether the process has exited.
     */
    boolean stop(Duration wait) {
        process.destroy();
        if (awaitExit(wait)) {
            return true;
        }
        signal("INT");
        if (awaitExit(wait)) {
            return true;
        }
        return stopImmediately(wait);
    }

    /** Immediate shutdown (SIGQUIT), given {@code wait}. Returns whether the process has exited. */
    boolean stopImmediately(Duration wait) {
        signal("QUIT");
        return awaitExit(wait);
    }

    private void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", name, Long.toString(process.pid()))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor(5, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new StandaloneStartupException(
                    "cannot signal PostgreSQL (pid " + process.pid() + ") with `kill -s " + name + "`: "
                            + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Polls rather than waiting on {@link ProcessHandle#onExit()}: an orphan's exit is only seen once its parent (init)
     * reaps it, which may take seconds, while an exited process that is not yet reaped (a zombie) holds nothing.
     */
    private boolean awaitExit(Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (isAlive()) {
            if (System.nanoTime() >= deadline) {
                return false;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !isAlive();
            }
        }
        return true;
    }

    /** Running, and not merely a zombie waiting to be reaped (Linux shows the state in /proc/<pid>/stat). */
    private static boolean running(ProcessHandle process) {
        if (!process.isAlive()) {
            return false;
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // pid (comm) state ...: comm may hold spaces and parentheses, the state follows the last ')'
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException | RuntimeException e) {
            return process.isAlive();
        }
    }
}
