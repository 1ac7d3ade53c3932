package io.fairledger.integrations.mesos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

class MesosBridgeSettingsTest {

    private static MesosBridge.Settings settings(String cluster) {
        return new MesosBridge.Settings(List.of(URI.create("http://mesos-1:5050")), cluster, Duration.ofSeconds(45),
                Duration.ofSeconds(2));
    }

    @Test
    void aRegistrableClusterIdIsTaken() {
        assertThat(settings("prod-mesos").cluster()).isEqualTo("prod-mesos");
    }

    @Test
    void aClusterIdFairledgerWouldNotRegisterIsRefusedSayingWhy() {
        for (String id : new String[]{"Prod", "a/b", "a?b", "-a", "a".repeat(64)}) {
            assertThatThrownBy(() -> settings(id))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--cluster is '" + id + "'")
                    .hasMessageContaining("lower-case letters, digits and '-'");
        }
    }
}
