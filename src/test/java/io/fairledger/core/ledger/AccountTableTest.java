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
        assertThat(table.get(1)).isEqualTo(account("root.b", 200, 2000, 99.5));
        assertThat(table.get(0)).isEqualTo(account("root.a", 100, 1000, 98.5)).isNotEqualTo(table.get(1));
    }

    @Test
    void rowsInSeveralBlocksComeBackFromTheirOwn() {
        int size = 2 * 1024 + 3;
        AccountTable.Rows rows = new AccountTable.Rows(size);
        for (int i = 0; i < size; i++) {
            rows.add(node("root.q" + i, 100 * i), integrals(10_000 * i), i);
        }
        AccountTable table = rows.table();
        for (int i : new int[]{0, 1023, 1024, 1025, 2047, 2048, size - 1}) {
            assertThat(table.get(i)).as("row %d", i).isEqualTo(account("root.q" + i, 100 * i, 10_000 * i, i));
            assertThat(table.path(i)).isEqualTo(TenantPath.parse("root.q" + i));
        }
        assertThatThrownBy(() -> table.get(size)).isInstanceOf(IndexOutOfBoundsException.class);
    }

    /** The account of a row added as {@code node(path, base)}, {@code integrals(integralsBase)}, {@code topUp}. */
    private static TenantAccount account(String path, int base, int integralsBase, double topUp) {
        int i = integralsBase;
        return new TenantAccount(TenantPath.parse(path), base + 1, base + 2, base + 3, "plan-" + base,
                new TenantAccount.Rates(new ResourceVector(base + 4, base + 5, base + 6),
                        new ResourceVector(base + 7, base + 8, base + 9), base + 10, base + 11, base + 12, base + 13,
                        base + 14, base + 15, base + 16),
                new TenantAccount.PeriodTotals(
                        List.of(BigInteger.TWO.pow(64).add(BigInteger.valueOf(i + 1)), BigInteger.valueOf(i + 2),
                                BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(i + 3))),
                        List.of(i + 4.0, i + 5.0, i + 6.0), i + 7, i + 8, i + 9, i + 10, i + 11, i + 12, i + 13),
                new TenantAccount.Memory(i + 14, i + 15, i + 16, i + 17, topUp));
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
