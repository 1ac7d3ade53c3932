package io.fairledger.integrations.mesos;

/** Where the bridge's events go: Kafka in production ({@link KafkaSink}). */
public interface EventSink extends AutoCloseable {

    /** Publishes one event and returns once it is acknowledged; throws when it cannot be. */
    void publish(String topic, String key, String json);

    @Override
    void close();
}
