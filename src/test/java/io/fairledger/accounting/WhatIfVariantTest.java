package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.LedgerSettings.Tenant;

/** A what-if's variant takes the live order of its tenants only when it lists the same tenants. */
class WhatIfVariantTest {

    private static final LedgerSettings LIVE = PeriodCloserProperties.settings(1)
            .withTenants(List.of(new Tenant("root.a", 1, null, ""), new Tenant("root.b", 1, null, ""),
                    new Tenant("root.c", 1, null, "")));

    @Test
    void theSameTenantsInAnotherOrderTakeTheLiveOrderWithTheVariantsValues() {
        LedgerSettings variant = LIVE.withTenants(List.of(new Tenant("root.c", 3, null, ""),
                new Tenant("root.a", 2, 0.1, ""), new Tenant("root.b", 1, null, "")));
        assertThat(WhatIfVariant.inLiveOrder(variant, LIVE).tenants()).containsExactly(
                new Tenant("root.a", 2, 0.1, ""), new Tenant("root.b", 1, null, ""),
                new Tenant("root.c", 3, null, ""));
    }

    @Test
    void otherTenantsADuplicateOrAnInvalidPathLeaveTheVariantAsItIs() {
        LedgerSettings other = LIVE.withTenants(List.of(new Tenant("root.c", 1, null, ""),
                new Tenant("root.a", 1, null, ""), new Tenant("root.d", 1, null, "")));
        LedgerSettings fewer = LIVE.withTenants(List.of(new Tenant("root.b", 1, null, ""),
                new Tenant("root.a", 1, null, "")));
        LedgerSettings duplicate = LIVE.withTenants(List.of(new Tenant("root.c", 1, null, ""),
                new Tenant("root.a", 1, null, ""), new Tenant("root.a", 2, null, "")));
        LedgerSettings invalid = LIVE.withTenants(List.of(new Tenant("root.c", 1, null, ""),
                new Tenant("root.a", 1, null, ""), new Tenant("root..b", 1, null, "")));
        for (LedgerSettings variant : List.of(other, fewer, duplicate, invalid)) {
            assertThat(WhatIfVariant.inLiveOrder(variant, LIVE)).isSameAs(variant);
        }
        LedgerSettings noLiveTree = LIVE.withTenants(null);
        assertThat(WhatIfVariant.inLiveOrder(other, noLiveTree)).isSameAs(other);
    }
}
