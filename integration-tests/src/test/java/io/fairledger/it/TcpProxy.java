package io.fairledger.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.fairledger.testsupport.Processes;

/**
 * A TCP relay between the server and a dependency, to take the dependency away and bring it back: {@link #down()}
 * resets every open connection and stops listening, so new connections are refused as by a stopped database;
 * {@link #up()} listens again on the same port.
 */
final class TcpProxy implements AutoCloseable {

    private final String targetHost;
    private final int targetPort;
    final int port = Processes.freePort();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "tcp-proxy");
        t.setDaemon(true);
        return t;
    });
    private ServerSocket listening;

    TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        up();
    }

    synchronized void up() {
        try {
            ServerSocket socket = new ServerSocket();
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", port));
            listening = socket;
            threads.submit(() -> accept(socket));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot listen on " + port + " again", e);
        }
    }

    /** Refuses new connections and resets the open ones. */
    synchronized void down() {
        closeQuietly(listening);
        for (Socket s : open) {
            reset(s);
        }
        open.clear();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            Socket client;
            try {
                client = socket.accept();
            } catch (IOException e) {
                continue; // closed by down()
            }
            try {
                Socket upstream = new Socket(targetHost, targetPort);
                open.add(client);
                open.add(upstream);
                threads.submit(() -> pipe(client, upstream));
                threads.submit(() -> pipe(upstream, client));
            } catch (IOException e) {
                reset(client);
            }
        }
    }

    private void pipe(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // one side went away
        } finally {
            reset(from);
            reset(to);
        }
    }

    private void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // already closed
        }
        closeQuietly(socket);
        open.remove(socket);
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (Exception e) {
            // nothing left to do
        }
    }

    @Override
    public void close() {
        down();
        threads.shutdownNow();
    }
}
