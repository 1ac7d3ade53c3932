package io.fairledger.cli;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

import org.apache.kafka.clients.CommonClientConfigs;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The Kafka client settings of a command ({@code replay}, {@code dlq}): a {@code --command-config} properties file, as
 * Kafka's own tools take ({@code security.protocol}, {@code sasl.jaas.config}, {@code ssl.truststore.location}, ...),
 * with {@code --bootstrap-servers} over its {@code bootstrap.servers}.
 */
final class KafkaCommandConfig {

    private KafkaCommandConfig() {
    }

    /** The settings, or a usage error when neither the option nor the file names the bootstrap servers. */
    static Map<String, Object> read(CommandSpec spec, Path commandConfig, String bootstrapServers) {
        Map<String, Object> config = new HashMap<>();
        if (commandConfig != null) {
            Properties file = new Properties();
            try (Reader in = Files.newBufferedReader(commandConfig, StandardCharsets.UTF_8)) {
                file.load(in);
            } catch (IOException e) {
                throw new ParameterException(spec.commandLine(),
                        "cannot read --command-config " + commandConfig + ": " + e.getMessage());
            }
            file.forEach((key, value) -> config.put(key.toString().trim(), value.toString().trim()));
        }
        if (bootstrapServers != null) {
            config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        }
        if (!config.containsKey(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG)) {
            throw new ParameterException(spec.commandLine(),
                    "give --bootstrap-servers, or bootstrap.servers in the --command-config file");
        }
        return config;
    }
}
