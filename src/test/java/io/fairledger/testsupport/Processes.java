package io.fairledger.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Small helpers for dependencies run as local processes: free ports, waiting for readiness, stopping a tree. */
public final class Processes {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private Processes() {
    }

    /** The ports {@link #freePort} gave in this JVM. */
    private static final Set<Integer> GIVEN = ConcurrentHashMap.newKeySet();

    /**
     * A port free on the loopback interface now, never one given before in this JVM: the system may hand a port just
     * closed out again at once, and two picked for one process (an API and a management port) then collide.
     */
    public static int freePort() {
        while (true) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                if (GIVEN.add(socket.getLocalPort())) {
                    return socket.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * Waits until {@code url} answers 200, failing when {@code process} exits or {@code timeout} passes (then stopping
     * it), naming {@code what} and where its log is ({@code logHint}).
     */
    public static void awaitHttpOk(String what, String url, Process process, Duration timeout, String logHint) {
        awaitHttp(what, url, 200, process, timeout, logHint);
    }

    /**
     * Waits until {@code url} answers {@code status}, polling every 50 ms, as {@link #awaitHttpOk}; returns when it
     * first answered anything ({@link System#nanoTime()}), for tools that time a start.
     */
    public static long awaitHttp(String what, String url, int status, Process process, Duration timeout,
            String logHint) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long answering = 0;
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with code " + process.exitValue() + "; see " + logHint);
            }
            try {
                HttpResponse<Void> response = HTTP.send(
                        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
                answering = answering == 0 ? System.nanoTime() : answering;
                if (response.statusCode() == status) {
                    return answering;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + what, e);
            }
            sleep(50);
        }
        stop(process);
        throw new IllegalStateException(what + " did not answer " + status + " at " + url + " within " + timeout
                + "; see " + logHint);
    }

    /** Stops a process and everything it started: SIGTERM, then SIGKILL after 30 s. */
    public static void stop(Process process) {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Deletes a directory tree a test dependency left behind. */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }
}
