package io.fairledger.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.security.runtime.QuarkusPrincipal;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.JsonArrayText;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.AccessDenied;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.ResourceManagerKind;
import io.fairledger.tenancy.TenancyService;

/**
 * What the billing service lets a caller see, over statements held in memory: a tenant the FOCUS rows of its own
 * subtree only and nothing of a cluster where it has no tenant, nor another tenant's invoice; only closed periods are
 * exported or invoiced; a range that is empty is refused; the invoice prints the statement's {@code chain.hash} when
 * its JSON carries one.
 */
class BillingServiceTest {

    private static final StatementView P0 = ChargeRowsTest.statement("p0", ChargeRowsTest.P0, ChargeRowsTest.P1,
            "USAGE", List.of(ChargeRowsTest.line("root.a.x", "1.00", List.of()),
                    ChargeRowsTest.line("root.b", "2.00", List.of())));
    private static final StatementView P1 = ChargeRowsTest.statement("p1", ChargeRowsTest.P1, ChargeRowsTest.P2,
            "USAGE", List.of(ChargeRowsTest.line("root.a.x", "1.00", List.of()))).in(StatementView.PROVISIONAL);
    private static final Instant TO = Instant.parse("2026-11-21T00:00:00Z");

    @Test
    void aTenantGetsTheRowsOfItsOwnSubtreeOfClosedPeriods() {
        List<java.util.Map<String, String>> rows = FocusRequirements.rows(billing(false, "c/root.a")
                .focusCsv("c", null, TO));
        assertThat(rows).extracting(r -> r.get("SubAccountId")).containsOnly("root.a.x");
        assertThat(rows).extracting(r -> r.get("InvoiceId")).containsOnly("c/root.a.x/p0");
        assertThat(FocusRequirements.rows(billing(true).focusCsv("c", null, TO)))
                .extracting(r -> r.get("SubAccountId")).containsOnly("root.a.x", "root.b");
        assertThat(FocusRequirements.rows(billing(true).focusCsv("c", ChargeRowsTest.P1, TO))).as("from p1 on")
                .isEmpty();
    }

    @Test
    void aTenantIsRefusedAClusterWhereItHasNoTenantAndAnotherTenantsInvoice() {
        assertThatThrownBy(() -> billing(false, "other/root.a").focusCsv("c", null, TO))
                .isInstanceOf(AccessDenied.class);
        assertThatThrownBy(() -> billing(false, "c/root.a").invoice("c", "root.b", "p0"))
                .isInstanceOf(AccessDenied.class);
    }

    @Test
    void anEmptyRangeAndAPeriodNotClosedAreRefused() {
        assertThatThrownBy(() -> billing(true).focusCsv("c", TO, TO)).isInstanceOf(Invalid.class)
                .hasMessageContaining("must be before");
        assertThatThrownBy(() -> billing(true).invoice("c", "root.a.x", "p1")).isInstanceOf(Conflict.class)
                .hasMessageContaining("only closed periods");
    }

    @Test
    void theInvoiceCarriesTheChainHashOfItsStatement() {
        Invoice invoice = billing(false, "c/root.a").invoice("c", "root.a.x", "p0");
        assertThat(invoice.chainHash()).isEqualTo("9f2c");
        assertThat(invoice.total()).isEqualByComparingTo(new BigDecimal("1.00"));
        assertThat(invoice.issuer()).isEqualTo("Shared cluster");
    }

    private static BillingService billing(boolean admin, String... tenants) {
        BillingService billing = new BillingService();
        QuarkusSecurityIdentity.Builder who = QuarkusSecurityIdentity.builder()
                .setPrincipal(new QuarkusPrincipal("ann")).addRole(admin ? Roles.ADMIN : Roles.TENANT)
                .addAttribute(TenantScope.CLAIM, List.of(tenants));
        billing.identity = who.build();
        billing.json = new ObjectMapper();
        billing.statements = new StatementService() {
            @Override
            public List<StatementView> statements(String clusterId, Instant until) {
                return List.of(P0, P1);
            }

            @Override
            public List<StatementView> statementsOf(String clusterId, TenantPath tenant, boolean subtree,
                    Instant until) {
                return List.of(P0, P1);
            }

            @Override
            public Map<String, LedgerSettings> closedSettings(String clusterId) {
                return Map.of("p0", ChargeRowsTest.settings(0, ChargeModel.USAGE));
            }

            @Override
            public JsonPage statementsJson(String clusterId, Instant until, Long afterMs, int limit) {
                String p0 = "{\"period\":\"p0\",\"chain\":{\"hash\":\"9f2c\"}}";
                String page = afterMs < P0.end().toEpochMilli() ? p0 : "{\"period\":\"p1\"}";
                return new JsonPage(new JsonArrayText(List.of(page.getBytes(StandardCharsets.UTF_8))), null, false);
            }
        };
        billing.tenancy = new TenancyService() {
            @Override
            public RegisteredCluster cluster(String id) {
                return new RegisteredCluster(id, "Shared cluster", ResourceManagerKind.YARN, true);
            }
        };
        return billing;
    }
}
