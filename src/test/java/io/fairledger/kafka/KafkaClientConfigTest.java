package io.fairledger.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;

class KafkaClientConfigTest {

    /** What Quarkus gives from kafka.* keys and KAFKA_* variables: every value a string, every key as Kafka's. */
    private static final Map<String, Object> OPERATOR = Map.of("bootstrap.servers", "kafka-1:9093",
            "security.protocol", "SASL_SSL", "sasl.mechanism", "SCRAM-SHA-512", "client.rack", "eu-west-1a",
            "max.poll.records", "200", "group.id", "fairledger-prod", "enable.auto.commit", "true", "linger.ms",
            "20", "awsRoleArn", "arn:aws:iam::1:role/x");

    @Test
    void theOperatorsSettingsReachTheConsumerOverFairledgersDefaultsButNotOverWhatItRestsOn() {
        Map<String, Object> consumer = KafkaClientConfig.consumer(OPERATOR,
                Map.of("max.poll.records", 5000, "fetch.min.bytes", 65536),
                Map.of("enable.auto.commit", false));
        assertThat(consumer).containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512").containsEntry("client.rack", "eu-west-1a")
                .containsEntry("group.id", "fairledger-prod")
                .as("the operator's tuning wins over fairledger's").containsEntry("max.poll.records", "200")
                .as("fairledger's tuning fills what the operator left out").containsEntry("fetch.min.bytes", 65536)
                .as("fixed settings win").containsEntry("enable.auto.commit", false)
                .as("a producer-only key is left out").doesNotContainKey("linger.ms")
                .as("a key Kafka does not define (a login module's) is passed on")
                .containsEntry("awsRoleArn", "arn:aws:iam::1:role/x");
    }

    @Test
    void producersAndAdminClientsGetTheirShare() {
        Map<String, Object> producer = KafkaClientConfig.producer(OPERATOR, Map.of("acks", "all", "linger.ms", 5),
                Map.of());
        assertThat(producer).containsEntry("security.protocol", "SASL_SSL").containsEntry("linger.ms", "20")
                .containsEntry("acks", "all").doesNotContainKeys("group.id", "max.poll.records", "enable.auto.commit");
        assertThat(KafkaClientConfig.admin(OPERATOR)).containsEntry("bootstrap.servers", "kafka-1:9093")
                .containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                .as("client.rack is the consumer's only").doesNotContainKeys("client.rack", "group.id", "linger.ms");
    }

    @Test
    void aSettingIsNamedAsAnOperatorSetsIt() {
        assertThat(KafkaClientConfig.setting("sasl.jaas.config"))
                .isEqualTo("kafka.sasl.jaas.config (KAFKA_SASL_JAAS_CONFIG)");
    }
}
