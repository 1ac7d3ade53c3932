package io.fairledger.core.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * An account read from an {@link AccountTable} says what its node and integrals said when its row was added: every
 * member from its own cell (each given a value of its own, so two members swapped fail), rows apart from each other.
 */
class AccountTableTest {

    @Test
    void everyMemberOfAnAccountComesBackFromItsOwnCell() {
        AccountTable.Rows rows = new AccountTable.Rows(2);
        rows.add(node("root.a", 100), integrals(1000), 98.5);
        rows.add(node("root.b", 200), integrals(2000), 99.5);
        AccountTable table = rows.table();

        assertThat(table).hasSize(2);
        assertThat(table.path(1)).isEqualTo(TenantPath.parse("root.b"));
        TenantAccount b = table.get(1);
        assertThat(b).isEqualTo(new TenantAccount(TenantPath.parse("root.b"), 201, 202, 203, "plan-200",
                new TenantAccount.Rates(new ResourceVector(204, 205, 206), new ResourceVector(207, 208, 209), 210,
                        211, 212, 213, 214, 215, 216),
                new TenantAccount.PeriodTotals(
                        List.of(BigInteger.TWO.pow(64).add(BigInteger.valueOf(2001)), BigInteger.valueOf(2002),
                                BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(2003))),
                        List.of(2004.0, 2005.0, 2006.0), 2007, 2008, 2009, 2010, 2011, 2012, 2013),
                new TenantAccount.Memory(2014, 2015, 2016, 2017, 99.5)));
        assertThat(table.get(0).path()).isEqualTo(TenantPath.parse("root.a"));
        assertThat(table.get(0).weight()).isEqualTo(101);
        assertThat(table.get(0).memory().quantumTopUp()).isEqualTo(98.5);
        assertThat(table.get(0)).isEqualTo(table.get(0)).isNotEqualTo(b);
    }

    @Test
    void aTableIsMadeOfEveryRowItWasSized() {
        AccountTable.Rows rows = new AccountTable.Rows(2);
        rows.add(node("root.a", 100), integrals(1000), 0);
        assertThatThrownBy(rows::table).isInstanceOf(IllegalStateException.class)
                .hasMessage("1 rows added to a table of 2");
        assertThatThrownBy(() -> new AccountTable.Rows(0).table().get(0))
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** A node whose configuration and rates are {@code base + 1, base + 2, ...} in the order of the account's. */
    private static TenantNode node(String path, int base) {
        TenantNode n = new TenantNode(0, TenantPath.parse(path), null, base + 1, Double.NaN, "plan-" + base, 0);
        n.share = base + 2;
        n.eta = base + 3;
        for (int r = 0; r < 3; r++) {
            n.held[r] = base + 4 + r;
            n.pending[r] = base + 7 + r;
        }
        n.g = base + 10;
        n.countedRate = base + 11;
        n.d = base + 12;
        n.e = base + 13;
        n.b = base + 14;
        n.u = base + 15;
        n.runningTasks = base + 16;
        return n;
    }

    /**
     * Integrals whose values are {@code base + 1, base + 2, ...} in the order of the account's; the first resource
     * integral is above 2^64 and the third above 2^63, so both halves of the exact totals are read.
     */
    private static Accumulators integrals(int base) {
        Accumulators a = new Accumulators(0);
        a.resourceMs[0] = Int128.of(BigInteger.TWO.pow(64).add(BigInteger.valueOf(base + 1)));
        a.resourceMs[1] = Int128.of(BigInteger.valueOf(base + 2));
        a.resourceMs[2] = Int128.of(BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(base + 3)));
        for (int r = 0; r < 3; r++) {
            a.uncountedResourceMs[r] = base + 4 + r;
        }
        a.actual = base + 7;
        a.counted = base + 8;
        a.entitled = base + 9;
        a.demand = base + 10;
        a.borrowedRaw = base + 11;
        a.lent = base + 12;
        a.borrowedFromSiblings = base + 13;
        a.memActual = base + 14;
        a.memCounted = base + 15;
        a.memEntitled = base + 16;
        a.phi = base + 17;
        return a;
    }
}
