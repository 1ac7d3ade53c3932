package io.fairledger.testsupport;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;

/**
 * A real single-node Kafka broker (in-JVM KRaft, from the Maven artifacts) whose only client listener is SASL_SSL:
 * SASL PLAIN over TLS, with a certificate for 127.0.0.1 made for it by {@code keytool} in a fresh directory, and one
 * user {@value #USER}. Inter-broker and controller traffic use listeners clients are never told about.
 */
public final class SecureKafkaBroker implements AutoCloseable {

    public static final String USER = "fairledger";
    public static final String PASSWORD = "right-secret";
    private static final String STORE_PASSWORD = "store-secret";

    private final KafkaRaftServer server;
    private final Path dir;
    private final String bootstrapServers;
    private final Path truststore;

    private SecureKafkaBroker(KafkaRaftServer server, Path dir, String bootstrapServers, Path truststore) {
        this.server = server;
        this.dir = dir;
        this.bootstrapServers = bootstrapServers;
        this.truststore = truststore;
    }

    public static SecureKafkaBroker start() {
        try {
            Path dir = Files.createTempDirectory("fairledger-test-kafka-sasl-ssl");
            Path keystore = dir.resolve("broker.p12");
            Path certificate = dir.resolve("broker.crt");
            Path truststore = dir.resolve("truststore.p12");
            keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "7", "-dname",
                    "CN=127.0.0.1", "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-keystore", keystore.toString(),
                    "-storetype", "PKCS12", "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
            keytool("-exportcert", "-alias", "broker", "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
                    "-rfc", "-file", certificate.toString());
            keytool("-importcert", "-noprompt", "-alias", "broker", "-file", certificate.toString(), "-keystore",
                    truststore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
            Path logDir = dir.resolve("log");
            Files.createDirectories(logDir);
            int clientPort = Processes.freePort();
            int internalPort = Processes.freePort();
            int controllerPort = Processes.freePort();
            Properties props = new Properties();
            props.put("process.roles", "broker,controller");
            props.put("node.id", "1");
            props.put("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
            props.put("listeners", "SASL_SSL://127.0.0.1:" + clientPort + ",INTERNAL://127.0.0.1:" + internalPort
                    + ",CONTROLLER://127.0.0.1:" + controllerPort);
            props.put("advertised.listeners",
                    "SASL_SSL://127.0.0.1:" + clientPort + ",INTERNAL://127.0.0.1:" + internalPort);
            props.put("controller.listener.names", "CONTROLLER");
            props.put("listener.security.protocol.map",
                    "SASL_SSL:SASL_SSL,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
            props.put("inter.broker.listener.name", "INTERNAL");
            props.put("sasl.enabled.mechanisms", "PLAIN");
            props.put("listener.name.sasl_ssl.plain.sasl.jaas.config",
                    "org.apache.kafka.common.security.plain.PlainLoginModule required user_" + USER + "=\""
                            + PASSWORD + "\";");
            props.put("listener.name.sasl_ssl.ssl.keystore.location", keystore.toString());
            props.put("listener.name.sasl_ssl.ssl.keystore.type", "PKCS12");
            props.put("listener.name.sasl_ssl.ssl.keystore.password", STORE_PASSWORD);
            props.put("listener.name.sasl_ssl.ssl.key.password", STORE_PASSWORD);
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
            new Formatter().setPrintStream(new PrintStream(PrintStream.nullOutputStream()))
                    .setClusterId(Uuid.randomUuid().toString()).setNodeId(1).setControllerListenerName("CONTROLLER")
                    .setMetadataLogDirectory(logDir.toString()).setDirectories(List.of(logDir.toString()))
                    .setSupportedFeatures(Feature.PRODUCTION_FEATURES)
                    .setReleaseVersion(MetadataVersion.latestProduction()).run();
            KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
            server.startup();
            return new SecureKafkaBroker(server, dir, "127.0.0.1:" + clientPort, truststore);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the SASL_SSL test broker: " + e.getMessage(), e);
        }
    }

    /**
     * Client settings for this broker, as an operator writes them without the {@code kafka.} prefix: bootstrap
     * servers, SASL_SSL, PLAIN, the JAAS line with this password, and the truststore holding the broker's certificate.
     */
    public Map<String, String> clientConfig(String password) {
        Map<String, String> config = new HashMap<>();
        config.put("bootstrap.servers", bootstrapServers);
        config.put("security.protocol", "SASL_SSL");
        config.put("sasl.mechanism", "PLAIN");
        config.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
                + USER + "\" password=\"" + password + "\";");
        config.put("ssl.truststore.location", truststore.toString());
        config.put("ssl.truststore.type", "PKCS12");
        config.put("ssl.truststore.password", STORE_PASSWORD);
        return config;
    }

    public String bootstrapServers() {
        return bootstrapServers;
    }

    @Override
    public void close() {
        server.shutdown();
        server.awaitShutdown();
        Processes.deleteTree(dir);
    }

    private static void keytool(String... args) throws IOException {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool " + args[0] + " failed: " + output);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

}
