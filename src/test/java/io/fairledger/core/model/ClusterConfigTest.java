package io.fairledger.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * A tenant configured twice is refused whether the tenants come in path order (checked without a set) or not, and
 * the two spellings of one path (YARN's and Mesos's) are the same tenant.
 */
class ClusterConfigTest {

    private static ClusterConfig of(String... paths) {
        List<TenantConfig> tenants = Arrays.stream(paths).map(p -> TenantConfig.of(p, 1)).toList();
        return ClusterConfig.defaults("c", 0, ResourceVector.of(10, 10240, 0), tenants);
    }

    @Test
    void aTenantConfiguredTwiceIsRefusedInAnyOrder() {
        assertThatThrownBy(() -> of("a", "a")).hasMessageContaining("tenant root.a configured twice in cluster c");
        assertThatThrownBy(() -> of("a", "b", "a")).hasMessageContaining("root.a configured twice");
        assertThatThrownBy(() -> of("root.a.b", "a/b")).hasMessageContaining("root.a.b configured twice");
        assertThatThrownBy(() -> of("b", "a", "b/c", "b")).hasMessageContaining("root.b configured twice");
    }

    @Test
    void tenantsInAnyOrderWithoutRepeatsAreTaken() {
        assertThat(of("a", "a/b", "a-b", "q1", "q1/x", "q10").tenants()).hasSize(6);
        assertThat(of("q10", "q1/x", "a-b", "a", "q1", "a/b").tenants()).hasSize(6);
        assertThat(of().tenants()).isEmpty();
    }
}
