package io.fairledger.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class TenantScopeTest {

    @Test
    void aTenantSeesItsSubtreeOnItsCluster() {
        TenantScope a = TenantScope.of(false, List.of("demo-yarn/root.a", "demo-mesos/analytics/etl", "garbage"));
        assertThat(a.maySee("demo-yarn", "root.a")).isTrue();
        assertThat(a.maySee("demo-yarn", "root.a.etl")).isTrue();
        assertThat(a.maySee("demo-yarn", "root.ab")).isFalse();
        assertThat(a.maySee("demo-yarn", "root")).isFalse();
        assertThat(a.maySee("demo-yarn", "root.b")).isFalse();
        assertThat(a.maySee("other", "root.a")).isFalse();
        assertThat(a.maySee("demo-mesos", "analytics/etl/nightly")).isTrue();
        assertThat(a.maySee("demo-mesos", "analytics")).isFalse();
        assertThat(a.maySee("demo-yarn", "")).isFalse();
        assertThat(a.tenants("demo-yarn")).containsExactly("root.a");
        assertThat(a.tenants("demo-mesos")).containsExactly("analytics/etl");
        assertThat(a.seesAll()).isFalse();
    }

    @Test
    void anAdminSeesEverythingAndNobodyElseDoes() {
        TenantScope admin = TenantScope.of(true, List.of());
        assertThat(admin.seesAll()).isTrue();
        assertThat(admin.maySee("any", "root.x")).isTrue();
        assertThat(TenantScope.of(false, List.of()).maySee("demo-yarn", "root.a")).isFalse();
        assertThat(TenantScope.of(null).maySee("demo-yarn", "root.a")).isFalse();
    }
}
