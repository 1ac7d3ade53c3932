package io.fairledger.standalone;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker (KRaft, combined broker and controller) running in this JVM, listening on 127.0.0.1
 * only. Its log directory is formatted once; a restart on the same directory keeps every topic and offset.
 */
public final class EmbeddedKafkaBroker implements AutoCloseable {

    /** How long {@link #close()} waits for the broker to stop. */
    static final Duration CLOSE_WAIT = Duration.ofSeconds(4);

    private final KafkaRaftServer server;
    private final String bootstrapServers;

    private EmbeddedKafkaBroker(KafkaRaftServer server, String bootstrapServers) {
        this.server = server;
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * Formats {@code logDir} if it holds no broker yet, then starts the broker.
     *
     * @param port the client port on 127.0.0.1, or 0 for a free one
     */
    public static EmbeddedKafkaBroker start(Path logDir, int port) {
        try {
            Files.createDirectories(logDir);
            int brokerPort = port == 0 ? freePort() : port;
            int controllerPort = freePort();
            Properties props = new Properties();
            props.put("process.roles", "broker,controller");
            props.put("node.id", "1");
            props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            props.put("listeners", "PLAINTEXT://127.0.0.1:" + brokerPort + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + brokerPort);
            props.put("controller.listener.names", "CONTROLLER");
            props.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "PLAINTEXT");
            props.put("log.dirs", logDir.toString());
            props.put("num.partitions", "3");
            props.put("offsets.topic.replication.factor", "1");
            props.put("offsets.topic.num.partitions", "3");
            props.put("transaction.state.log.replication.factor", "1");
            props.put("transaction.state.log.min.isr", "1");
            props.put("share.coordinator.state.topic.replication.factor", "1");
            props.put("share.coordinator.state.topic.min.isr", "1");
            props.put("group.initial.rebalance.delay.ms", "0");
            props.put("auto.create.topics.enable", "true");
            KafkaConfig config = KafkaConfig.fromProps(props, false);
            if (!Files.exists(logDir.resolve("meta.properties"))) {
                format(logDir);
            }
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            return new EmbeddedKafkaBroker(server, "127.0.0.1:" + brokerPort);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the embedded Kafka broker in " + logDir, e);
        }
    }

    private static void format(Path logDir) {
        try {
            new Formatter().setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                    .setClusterId(Uuid.randomUuid().toString())
                    .setNodeId(1)
                    .setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(logDir.toString())
                    .setDirectories(List.of(logDir.toString()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setReleaseVersion(MetadataVersion.latestProduction())
                    .run();
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka log directory " + logDir + ": " + e.getMessage(),
                    e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The {@code bootstrap.servers} value clients use. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    /**
     * Stops the broker, waiting at most {@link #CLOSE_WAIT}. A broker that takes longer is left to die with the JVM:
     * its next start recovers the log as after a crash, and what producers had acknowledged is kept.
     *
     * @return whether the broker stopped within the wait
     */
    public boolean closeWithin() {
        Thread stopper = new Thread(() -> {
            server.shutdown();
            server.awaitShutdown();
        }, "fairledger-kafka-stop");
        stopper.setDaemon(true);
        stopper.start();
        try {
            stopper.join(CLOSE_WAIT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !stopper.isAlive();
    }

    @Override
    public void close() {
        closeWithin();
    }
}
