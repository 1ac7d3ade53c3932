package io.fairledger.integrations.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class BridgeConfigTest {

    private static Configuration conf(String cluster) {
        Configuration conf = new Configuration(false);
        conf.set(BridgeConfig.CLUSTER, cluster);
        conf.set(BridgeConfig.BOOTSTRAP, "localhost:9092");
        return conf;
    }

    @Test
    void aRegistrableClusterIdIsTaken() {
        assertThat(BridgeConfig.from(conf("prod-yarn-2")).cluster()).isEqualTo("prod-yarn-2");
    }

    @Test
    void aClusterIdFairledgerWouldNotRegisterStopsTheBridgeSayingWhy() {
        for (String id : new String[]{"Prod", "a/b", "a b", "-a", "a".repeat(64)}) {
            assertThatThrownBy(() -> BridgeConfig.from(conf(id)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(BridgeConfig.CLUSTER + " is '" + id + "'")
                    .hasMessageContaining("lower-case letters, digits and '-'");
        }
    }
}
