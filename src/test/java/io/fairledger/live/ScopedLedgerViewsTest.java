package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import org.junit.jupiter.api.Test;

import io.fairledger.errors.AccessDenied;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;

/**
 * The tenant scope the REST resource and the portal share: a tenant is refused another tenant's statements, and a
 * cluster's aggregates where it has no tenant, before anything is read (no statement service is wired here: a read
 * would fail otherwise).
 */
class ScopedLedgerViewsTest {

    @Test
    void aTenantIsRefusedAnotherTenantsStatements() {
        ScopedLedgerViews views = viewsFor("ann", "demo-yarn/root.a");
        assertThatThrownBy(() -> views.tenantStatements("demo-yarn", "root.b")).isInstanceOf(AccessDenied.class)
                .hasMessageContaining("is not yours");
        assertThatThrownBy(() -> views.tenantStatementsCsv("demo-yarn", "root.ab"))
                .isInstanceOf(AccessDenied.class);
    }

    @Test
    void aTenantWithNoTenantInTheClusterIsRefusedItsAggregates() {
        ScopedLedgerViews views = viewsFor("ann", "demo-yarn/root.a");
        assertThatThrownBy(() -> views.fairness("demo-mesos")).isInstanceOf(AccessDenied.class)
                .hasMessageContaining("no tenant in cluster 'demo-mesos'");
    }

    private static ScopedLedgerViews viewsFor(String name, String... tenants) {
        ScopedLedgerViews views = new ScopedLedgerViews();
        views.identity = QuarkusSecurityIdentity.builder().setPrincipal(new QuarkusPrincipal(name))
                .addRole(Roles.TENANT).addAttribute(TenantScope.CLAIM, List.of(tenants)).build();
        views.ledgers = new LiveLedgers() {
            @Override
            public LiveView view(String clusterId) {
                return null; // every cluster exists; its numbers are never reached
            }
        };
        return views;
    }
}
