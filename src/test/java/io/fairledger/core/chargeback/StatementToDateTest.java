package io.fairledger.core.chargeback;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.RandomStreams;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * A line of the open statement computed alone ({@link StatementToDate#line}) is the line the whole statement holds:
 * every inner line, and every leaf's under USAGE (two plans, a tenant naming one, the others the default); a leaf
 * under GROUP_BUY is not computed alone, its charge being a part of a split over every leaf.
 */
class StatementToDateTest {

    private static final PricePlan STD = new PricePlan("std", new BigDecimal("0.04"), new BigDecimal("0.005"),
            new BigDecimal("1.3"));
    private static final PricePlan GOLD = new PricePlan("gold", new BigDecimal("0.07"), new BigDecimal("0.011"),
            new BigDecimal("2"));
    private static final ChargebackConfig USAGE = new ChargebackConfig(ChargeModel.USAGE,
            Map.of("std", STD, "gold", GOLD), "std", BigDecimal.ZERO, 3);

    @Property(tries = 200)
    void aLineComputedAloneIsTheWholeStatementsLine(@ForAll long seed,
            @ForAll @IntRange(min = 0, max = 300) int count, @ForAll boolean groupBuy) {
        ClusterConfig config = RandomStreams.config(0.3, new MemoryMode.Full());
        List<TenantConfig> tenants = config.tenants().stream().map(t -> t.path().equals(TenantPath.parse("c/y"))
                ? new TenantConfig(t.path(), t.weight(), t.discountOverride(), "gold")
                : t).toList();
        ClusterLedger ledger = new ClusterLedger(new ClusterConfig(config.clusterId(), config.registeredAt(),
                config.capacity(), tenants, config.discountRate(), config.memory(), config.par(), config.measure(),
                config.rootQuantumMs(), config.quantumRefreshMs()));
        List<LedgerEvent> events = RandomStreams.events(seed, count, true);
        events.forEach(ledger::apply);
        long at = events.isEmpty() ? 1 : events.get(events.size() - 1).at() + 1;
        List<TenantAccount> accounts = ledger.accounts(at);
        ChargebackConfig prices = groupBuy ? ChargebackConfig.groupBuy(new BigDecimal("123.45")) : USAGE;
        StatementToDate toDate = new StatementToDate("c", new Period("p", 0, at), accounts, prices, null);
        Map<TenantPath, TenantStatement> whole = new HashMap<>();
        toDate.whole().lines().forEach(l -> whole.put(l.tenant(), l));
        Set<TenantPath> parents = new HashSet<>();
        accounts.forEach(a -> {
            if (!a.path().isRoot()) {
                parents.add(a.path().parent());
            }
        });
        for (TenantAccount a : accounts) {
            if (a.path().isRoot()) {
                continue;
            }
            boolean inner = parents.contains(a.path());
            Optional<TenantStatement> alone = toDate.line(a, inner);
            if (groupBuy && !inner) {
                assertThat(alone).as(a.path().toString()).isEmpty();
            } else {
                assertThat(alone).as(a.path().toString()).contains(whole.get(a.path()));
            }
        }
    }
}
