package io.fairledger.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * One of two consumers of a group dies without leaving it (a replica killed): with fairledger's membership settings
 * ({@link KafkaClientConfig#MEMBERSHIP}) the other takes its partitions once the dead member's session times out. The
 * dead member is a static one ({@code group.instance.id}) closed: a static member sends no leave request, so the
 * group sees it exactly as a killed process. The time it takes is printed, for docs/benchmarks.md; it is not asserted.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class GroupTakeoverTest {

    private static final int PARTITIONS = 4;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void theSurvivorTakesTheDeadMembersPartitions() throws Exception {
        String topic = "takeover-" + UUID.randomUUID();
        String group = "takeover-" + UUID.randomUUID();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get();
        }
        KafkaConsumer<byte[], byte[]> dead = consumer(group, "dead");
        try (KafkaConsumer<byte[], byte[]> survivor = consumer(group, "survivor")) {
            dead.subscribe(List.of(topic));
            survivor.subscribe(List.of(topic));
            Awaitility.await().atMost(60, TimeUnit.SECONDS).until(() -> {
                dead.poll(Duration.ofMillis(100));
                survivor.poll(Duration.ofMillis(100));
                return dead.assignment().size() + survivor.assignment().size() == PARTITIONS
                        && !dead.assignment().isEmpty();
            });
            long diedAt = System.nanoTime();
            dead.close(Duration.ZERO);
            Awaitility.await().atMost(120, TimeUnit.SECONDS).until(() -> {
                survivor.poll(Duration.ofMillis(100));
                return survivor.assignment().size() == PARTITIONS;
            });
            System.out.printf("GroupTakeoverTest: the survivor held every partition %d ms after the other died%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - diedAt));
            assertThat(survivor.assignment()).hasSize(PARTITIONS);
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer(String group, String instance) {
        Map<String, Object> defaults = new HashMap<>(KafkaClientConfig.MEMBERSHIP);
        defaults.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        defaults.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, group + "-" + instance);
        return new KafkaConsumer<>(KafkaClientConfig.consumer(
                Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), defaults, Map.of()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
