package io.fairledger.kafka;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Connects once with the operator's Kafka settings before the consumer starts, so settings that cannot work (wrong
 * SASL credentials, a truststore that does not trust the broker, a plaintext client against a TLS listener) stop the
 * server at startup with a message naming the setting to fix, instead of a consumer that retries in the log forever.
 */
public final class KafkaConnectionCheck {

    /** How long the broker has to answer when the settings give no {@code default.api.timeout.ms}. */
    private static final long DEFAULT_TIMEOUT_MS = 30_000;

    private KafkaConnectionCheck() {
    }

    /** Why these settings cannot reach the broker, naming the setting to fix; null when the broker answered. */
    public static String problem(Map<String, ?> given) {
        Map<String, Object> config = KafkaClientConfig.admin(given);
        Object bootstrap = config.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG);
        Object protocol = config.getOrDefault(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "PLAINTEXT");
        long timeoutMs = timeoutMs(config);
        String where = "Kafka at " + bootstrap + " (security.protocol=" + protocol + ")";
        try (Admin admin = Admin.create(config)) {
            admin.describeCluster(new DescribeClusterOptions().timeoutMs((int) timeoutMs)).clusterId()
                    .get(timeoutMs + 5_000, TimeUnit.MILLISECONDS);
            return null;
        } catch (ExecutionException e) {
            return explain(where, e.getCause(), timeoutMs);
        } catch (java.util.concurrent.TimeoutException e) {
            return explain(where, new TimeoutException(e.getMessage()), timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return where + ": interrupted while connecting";
        } catch (KafkaException | IllegalArgumentException e) {
            return "the Kafka client settings are invalid (" + rootMessage(e) + "); check "
                    + KafkaClientConfig.setting(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG) + ", "
                    + KafkaClientConfig.setting(SaslConfigs.SASL_MECHANISM) + " and "
                    + KafkaClientConfig.setting(SaslConfigs.SASL_JAAS_CONFIG);
        }
    }

    private static String explain(String where, Throwable cause, long timeoutMs) {
        if (cause instanceof SaslAuthenticationException) {
            return where + " refused the credentials (" + cause.getMessage() + "): check "
                    + KafkaClientConfig.setting(SaslConfigs.SASL_JAAS_CONFIG) + " and "
                    + KafkaClientConfig.setting(SaslConfigs.SASL_MECHANISM);
        }
        if (cause instanceof SslAuthenticationException) {
            return where + ": the TLS handshake failed (" + rootMessage(cause) + "): check "
                    + KafkaClientConfig.setting(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG) + " and "
                    + KafkaClientConfig.setting(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG);
        }
        if (cause instanceof TimeoutException) {
            return where + " did not answer within " + timeoutMs / 1000 + " s: check "
                    + KafkaClientConfig.setting(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG) + " and "
                    + KafkaClientConfig.setting(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG)
                    + " (a plaintext client gets no answer from a TLS or SASL listener)";
        }
        return where + " failed: " + rootMessage(cause);
    }

    private static long timeoutMs(Map<String, Object> config) {
        Object given = config.get(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG);
        if (given == null) {
            return DEFAULT_TIMEOUT_MS;
        }
        try {
            return Long.parseLong(given.toString().trim());
        } catch (NumberFormatException e) {
            throw new ConfigException(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, given, "not a number");
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root == e ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root.getMessage();
    }
}
