package io.fairledger.kafka;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The settings of every Kafka client fairledger builds (the event consumer, the dead-letter producer, the decision
 * publisher, the {@code replay} and {@code dlq} commands), in one rule: everything the operator gives (Quarkus's
 * {@code kafka.*} keys and {@code KAFKA_*} variables, or a {@code --command-config} file) is passed on, so
 * {@code security.protocol}, SASL, TLS, {@code client.rack} and any tuning reach the client; fairledger's own tuning
 * only fills what the operator left out; and the few settings a client's correctness rests on (no auto-commit for the
 * consumer, {@code acks=all} for dead letters) are fixed. A key that Kafka defines for another kind of client only
 * (say {@code group.id} for a producer) is left out, so clients do not warn about settings meant for their siblings;
 * keys Kafka does not know (a login module's or interceptor's own) are passed on.
 */
public final class KafkaClientConfig {

    private static final Set<String> KNOWN = new HashSet<>();

    static {
        KNOWN.addAll(ConsumerConfig.configNames());
        KNOWN.addAll(ProducerConfig.configNames());
        KNOWN.addAll(AdminClientConfig.configNames());
    }

    /**
     * The group membership of fairledger's consumer, unless the operator sets it: a member that stops heartbeating
     * (a replica killed) is out of the group after {@code session.timeout.ms} of 6 s, the broker's lowest by default
     * ({@code group.min.session.timeout.ms}), where Kafka's own default of 45 s left its partitions unread that long;
     * heartbeats every 1.5 s, so a member misses three before it counts as dead. An operator who also sets a stable
     * {@code group.instance.id} per replica (a StatefulSet's pod name) makes a restarted replica take its partitions
     * back without a rebalance (static membership); it is not fixed here, since two replicas given the same id fence
     * each other.
     */
    public static final Map<String, Object> MEMBERSHIP = Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 6000,
            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 1500);

    private KafkaClientConfig() {
    }

    /** A consumer's settings: {@code given} over {@code defaults}, then {@code fixed}. */
    public static Map<String, Object> consumer(Map<String, ?> given, Map<String, ?> defaults, Map<String, ?> fixed) {
        return merge(ConsumerConfig.configNames(), given, defaults, fixed);
    }

    /** A producer's settings: {@code given} over {@code defaults}, then {@code fixed}. */
    public static Map<String, Object> producer(Map<String, ?> given, Map<String, ?> defaults, Map<String, ?> fixed) {
        return merge(ProducerConfig.configNames(), given, defaults, fixed);
    }

    /** An admin client's settings: {@code given} as they are, less what only consumers or producers use. */
    public static Map<String, Object> admin(Map<String, ?> given) {
        return merge(AdminClientConfig.configNames(), given, Map.of(), Map.of());
    }

    private static Map<String, Object> merge(Set<String> own, Map<String, ?> given, Map<String, ?> defaults,
            Map<String, ?> fixed) {
        Map<String, Object> config = new HashMap<>();
        defaults.forEach((key, value) -> put(own, config, key, value));
        given.forEach((key, value) -> put(own, config, key, value));
        fixed.forEach((key, value) -> put(own, config, key, value));
        return config;
    }

    private static void put(Set<String> own, Map<String, Object> config, String key, Object value) {
        if (value != null && (own.contains(key) || !KNOWN.contains(key))) {
            config.put(key, value);
        }
    }

    /**
     * The environment variable Quarkus reads a {@code kafka.*} setting from ({@code sasl.jaas.config} ->
     * {@code KAFKA_SASL_JAAS_CONFIG}), for messages that name a setting.
     */
    public static String variable(String key) {
        return "KAFKA_" + key.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** {@code kafka.KEY (KAFKA_KEY)}: how an operator sets {@code key}. */
    public static String setting(String key) {
        return "kafka." + key + " (" + variable(key) + ")";
    }
}
