package io.fairledger.standalone;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.function.IntPredicate;
import java.util.function.IntSupplier;

import io.smallrye.config.ConfigValue;
import io.smallrye.config.SmallRyeConfig;

/**
 * The port of the management interface (health and metrics), settled by {@code fairledger serve} before anything
 * starts, so that a port in use is named at once rather than after PostgreSQL and the broker have started. A port given
 * explicitly ({@code --management-port}, or {@code quarkus.management.port} from the environment, a system property or
 * {@code config/application.properties}) is used as given, and refused when it is in use; without one, the default
 * {@value #DEFAULT} moves to a free port in standalone mode when it is in use (the production mode's probes and
 * scrapers expect the port they were given, so there it is refused too). Port 0 picks a free port.
 */
public final class ManagementPort {

    public static final int DEFAULT = 9000;
    static final String KEY = "quarkus.management.port";
    static final String HOST_KEY = "quarkus.management.host";
    static final String API_PORT_KEY = "quarkus.http.port";
    /** The API's port when none is configured at all. */
    static final int DEFAULT_API_PORT = 8080;
    private static final int MAX_PORT = 65_535;

    private final int port;
    /** What to tell the operator about the port, or null. */
    private final String notice;

    private ManagementPort(int port, String notice) {
        this.port = port;
        this.notice = notice;
    }

    public int port() {
        return port;
    }

    /** What {@code serve} prints about the port (it moved, or was picked), or null when it is the one asked for. */
    public String notice() {
        return notice;
    }

    /**
     * Settles the port from {@code option} ({@code --management-port}, or null) and the configuration, trying the
     * host the interface will bind, and hands it to Quarkus.
     *
     * @param standalone whether something runs embedded: the default port may then move
     * @param kafkaPort  the embedded broker's port, or 0 when there is none or it is picked freely
     * @throws StandaloneStartupException when the port cannot be used, saying why
     */
    public static ManagementPort settle(Integer option, boolean standalone, int kafkaPort) {
        SmallRyeConfig config = StartupSettings.config();
        // the port the operator gave, not the default of the server's own application.properties
        ConfigValue given = config.getConfigValue(KEY);
        String configured = given.getConfigSourceOrdinal() > StartupSettings.BUILT_IN_ORDINAL
                ? StartupSettings.lookup(config, KEY)
                : null;
        String apiPort = StartupSettings.lookup(config, API_PORT_KEY);
        String host = StartupSettings.lookup(config, HOST_KEY);
        InetAddress address = address(host == null ? "127.0.0.1" : host);
        Integer requested = option != null ? option : configured == null ? null : number(configured, KEY);
        ManagementPort settled = choose(requested, option != null ? "--management-port" : KEY,
                apiPort == null ? DEFAULT_API_PORT : number(apiPort, API_PORT_KEY), kafkaPort, standalone,
                p -> isFree(address, p), () -> anyFree(address));
        if (option != null) {
            // the command line wins over the environment, whose source ranks above StandaloneConfigSource
            System.setProperty(KEY, Integer.toString(settled.port));
        } else {
            StandaloneConfigSource.put(KEY, Integer.toString(settled.port));
        }
        return settled;
    }

    /**
     * The port to use for {@code requested} (null: none given), named {@code source} in messages.
     *
     * @throws StandaloneStartupException when {@code requested} is not a port, is the API's or the broker's, or is
     *         in use
     */
    static ManagementPort choose(Integer requested, String source, int apiPort, int kafkaPort, boolean mayMove,
            IntPredicate free, IntSupplier anyFree) {
        if (requested == null) {
            if (DEFAULT != apiPort && DEFAULT != kafkaPort && free.test(DEFAULT)) {
                return new ManagementPort(DEFAULT, null);
            }
            if (!mayMove) {
                return choose(DEFAULT, "the management port", apiPort, kafkaPort, false, free, anyFree);
            }
            int picked = pick(apiPort, kafkaPort, anyFree);
            return new ManagementPort(picked, "port " + DEFAULT + " is taken: health and metrics are on port " + picked
                    + " instead (--management-port sets it)");
        }
        String named = source + " " + requested;
        if (requested < 0 || requested > MAX_PORT) {
            throw new StandaloneStartupException(named + " is not a port: give 1 to " + MAX_PORT
                    + ", or 0 for a free one");
        }
        if (requested == 0) {
            int picked = pick(apiPort, kafkaPort, anyFree);
            return new ManagementPort(picked, "health and metrics are on port " + picked + " (" + named + ")");
        }
        if (requested == apiPort) {
            throw new StandaloneStartupException(named + " is the API's port (" + API_PORT_KEY + "): health and "
                    + "metrics need a port of their own");
        }
        if (requested == kafkaPort) {
            throw new StandaloneStartupException(named + " is the embedded Kafka broker's port (--kafka-port): "
                    + "health and metrics need a port of their own");
        }
        if (!free.test(requested)) {
            throw new StandaloneStartupException(named + " (health and metrics) is in use: free it or give another "
                    + "with --management-port; nothing was started");
        }
        return new ManagementPort(requested, null);
    }

    private static int pick(int apiPort, int kafkaPort, IntSupplier anyFree) {
        int picked = anyFree.getAsInt();
        while (picked == apiPort || picked == kafkaPort) {
            picked = anyFree.getAsInt();
        }
        return picked;
    }

    private static int number(String value, String key) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new StandaloneStartupException(key + " \"" + value + "\" is not a port number");
        }
    }

    private static InetAddress address(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (IOException e) {
            throw new StandaloneStartupException("the management interface's host " + host + " is unknown ("
                    + HOST_KEY + ")", e);
        }
    }

    /** Whether a server socket can be bound to {@code port} of {@code address} now. */
    static boolean isFree(InetAddress address, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            // as the HTTP server binds: a port left in TIME_WAIT by a stopped server is free
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int anyFree(InetAddress address) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(address, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new StandaloneStartupException("no free port for the management interface on " + address, e);
        }
    }
}
