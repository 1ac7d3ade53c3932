package io.fairledger.kafka;

import java.util.Map;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.smallrye.common.annotation.Identifier;
import org.apache.kafka.clients.admin.Admin;

/**
 * The server's one Kafka admin client, made with the operator's client settings ({@link KafkaClientConfig#admin}) on
 * first use and closed at shutdown: the health check and the backlog share it rather than each holding connections
 * of their own.
 */
@ApplicationScoped
public class SharedAdmin {

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    private Admin admin;

    /** The admin client, created on the first call. */
    public synchronized Admin get() {
        if (admin == null) {
            admin = Admin.create(KafkaClientConfig.admin(kafkaConfig));
        }
        return admin;
    }

    @PreDestroy
    synchronized void close() {
        if (admin != null) {
            admin.close();
        }
    }
}
