package io.fairledger.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on a loopback port to a real service, which a test can cut off: while {@link #reachable()} is false
 * it closes every new connection at once (counted in {@link #refused()}) and every open one at its next byte, so
 * clients see the service go away and come back. The switch and the counter are JDK types, which a Quarkus test
 * resource can hand to a test across class loaders.
 */
public final class SwitchableProxy implements AutoCloseable {

    private final ServerSocket server;
    private final InetSocketAddress target;
    private final AtomicBoolean reachable = new AtomicBoolean(true);
    private final AtomicInteger refused = new AtomicInteger();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    public SwitchableProxy(String targetHost, int targetPort) throws IOException {
        this.target = new InetSocketAddress(targetHost, targetPort);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accepting = new Thread(this::accept, "switchable-proxy-" + server.getLocalPort());
        accepting.setDaemon(true);
        accepting.start();
    }

    /** The loopback port clients connect to. */
    public int port() {
        return server.getLocalPort();
    }

    /** Set to false to cut the service off, true to let clients through again. */
    public AtomicBoolean reachable() {
        return reachable;
    }

    /** Connections closed because the service was cut off. */
    public AtomicInteger refused() {
        return refused;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (!reachable.get()) {
                    refused.incrementAndGet();
                    client.close();
                    continue;
                }
                Socket upstream = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                open.add(upstream);
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // closed, or the service refused: the client sees its connection end
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (!reachable.get()) {
                        refused.incrementAndGet();
                        break;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // either side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "switchable-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private void closeQuietly(Socket socket) {
        open.remove(socket);
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
        open.forEach(this::closeQuietly);
    }
}
