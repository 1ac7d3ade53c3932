package io.fairledger.core.ledger;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.RandomAccess;

import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * Every node's account at one instant ({@link ClusterLedger#accounts}), kept as numbers in arrays, one row a node:
 * an account is made when it is read. A live view holds the accounts of every tenant at each tick and most are never
 * read before the next tick replaces them; as records they cost about 560 bytes and a dozen objects a tenant, which
 * the young collections then copied while a view lived (docs/benchmarks.md, "Settings changes"); here they cost 296
 * bytes a tenant in arrays that hold no reference. The rows are in blocks of {@value #BLOCK}, so that no array is as
 * large as half a G1 region of 1 MB (a heap up to 2 GB): a larger array would be "humongous", and each view's would
 * have G1 start a concurrent cycle, whose remark pauses were longer than the young collections saved. Immutable once
 * built; reading the same row twice gives equal, not identical, accounts.
 */
public final class AccountTable extends AbstractList<TenantAccount> implements RandomAccess {

    // the long cells of a row
    private static final int HELD = 0;
    private static final int PENDING = 3;
    private static final int RUNNING = 6;
    /** Three exact resource integrals, each as its high then low 64 bits. */
    private static final int RESOURCE_MS = 7;
    private static final int LONGS = 13;

    // the double cells of a row
    private static final int WEIGHT = 0;
    private static final int SHARE = 1;
    private static final int ETA = 2;
    private static final int G = 3;
    private static final int COUNTED_RATE = 4;
    private static final int D = 5;
    private static final int E = 6;
    private static final int B = 7;
    private static final int U = 8;
    private static final int UNCOUNTED_MS = 9;
    private static final int ACTUAL = 12;
    private static final int COUNTED = 13;
    private static final int ENTITLED = 14;
    private static final int DEMAND = 15;
    private static final int BORROWED = 16;
    private static final int LENT = 17;
    private static final int BORROWED_FROM_SIBLINGS = 18;
    private static final int MEM_ACTUAL = 19;
    private static final int MEM_COUNTED = 20;
    private static final int MEM_ENTITLED = 21;
    private static final int PHI = 22;
    private static final int QUANTUM_TOP_UP = 23;
    private static final int DOUBLES = 24;

    /** Rows a block: 1,024 rows of 13 longs and of 24 doubles, 104 KB and 192 KB. */
    private static final int BLOCK = 1024;

    private final TenantPath[] paths;
    private final String[] plans;
    private final long[][] longs;
    private final double[][] doubles;

    private AccountTable(Rows rows) {
        this.paths = rows.paths;
        this.plans = rows.plans;
        this.longs = rows.longs;
        this.doubles = rows.doubles;
    }

    @Override
    public int size() {
        return paths.length;
    }

    @Override
    public TenantAccount get(int row) {
        TenantPath path = paths[row]; // throws for a row out of range
        long[] longs = this.longs[row / BLOCK];
        double[] doubles = this.doubles[row / BLOCK];
        int l = row % BLOCK * LONGS;
        int d = row % BLOCK * DOUBLES;
        var rates = new TenantAccount.Rates(vector(longs, l + HELD), vector(longs, l + PENDING), doubles[d + G],
                doubles[d + COUNTED_RATE], doubles[d + D], doubles[d + E], doubles[d + B], doubles[d + U],
                (int) longs[l + RUNNING]);
        int r = l + RESOURCE_MS;
        var period = new TenantAccount.PeriodTotals(
                List.of(Int128.value(longs[r], longs[r + 1]), Int128.value(longs[r + 2], longs[r + 3]),
                        Int128.value(longs[r + 4], longs[r + 5])),
                List.of(doubles[d + UNCOUNTED_MS], doubles[d + UNCOUNTED_MS + 1], doubles[d + UNCOUNTED_MS + 2]),
                doubles[d + ACTUAL], doubles[d + COUNTED], doubles[d + ENTITLED], doubles[d + DEMAND],
                doubles[d + BORROWED], doubles[d + LENT], doubles[d + BORROWED_FROM_SIBLINGS]);
        var memory = new TenantAccount.Memory(doubles[d + MEM_ACTUAL], doubles[d + MEM_COUNTED],
                doubles[d + MEM_ENTITLED], doubles[d + PHI], doubles[d + QUANTUM_TOP_UP]);
        return new TenantAccount(path, doubles[d + WEIGHT], doubles[d + SHARE], doubles[d + ETA], plans[row], rates,
                period, memory);
    }

    private static ResourceVector vector(long[] longs, int at) {
        return new ResourceVector(longs[at], longs[at + 1], longs[at + 2]);
    }

    /** The node of {@code row}, without making its account. */
    public TenantPath path(int row) {
        return paths[row];
    }

    /** The node of every row, without making their accounts. */
    public List<TenantPath> paths() {
        return Collections.unmodifiableList(Arrays.asList(paths));
    }

    /** The accounts of {@code rows}, in that order, each made when read. */
    public List<TenantAccount> rows(int[] rows) {
        return new Subset(rows.clone());
    }

    private final class Subset extends AbstractList<TenantAccount> implements RandomAccess {

        private final int[] rows;

        Subset(int[] rows) {
            this.rows = rows;
        }

        @Override
        public int size() {
            return rows.length;
        }

        @Override
        public TenantAccount get(int i) {
            return AccountTable.this.get(rows[i]);
        }
    }

    /** The rows of a table being filled, one a node, by one thread; {@link #table} ends the filling. */
    static final class Rows {

        private final TenantPath[] paths;
        private final String[] plans;
        private final long[][] longs;
        private final double[][] doubles;
        private int next;

        Rows(int size) {
            paths = new TenantPath[size];
            plans = new String[size];
            int blocks = (size + BLOCK - 1) / BLOCK;
            longs = new long[blocks][];
            doubles = new double[blocks][];
            for (int b = 0; b < blocks; b++) {
                int rows = Math.min(BLOCK, size - b * BLOCK);
                longs[b] = new long[rows * LONGS];
                doubles[b] = new double[rows * DOUBLES];
            }
        }

        /**
         * Adds the row of {@code n} whose integrals, advanced to {@code at}, are {@code a}: its configuration and rates
         * as the node holds them now.
         */
        void add(TenantNode n, Accumulators a, double quantumTopUp) {
            int row = next++;
            paths[row] = n.path;
            plans[row] = n.pricePlan;
            long[] longs = this.longs[row / BLOCK];
            double[] doubles = this.doubles[row / BLOCK];
            int l = row % BLOCK * LONGS;
            System.arraycopy(n.held, 0, longs, l + HELD, 3);
            System.arraycopy(n.pending, 0, longs, l + PENDING, 3);
            longs[l + RUNNING] = n.runningTasks;
            for (int r = 0; r < 3; r++) {
                longs[l + RESOURCE_MS + 2 * r] = a.resourceMs[r].hi;
                longs[l + RESOURCE_MS + 2 * r + 1] = a.resourceMs[r].lo;
            }
            int d = row % BLOCK * DOUBLES;
            doubles[d + WEIGHT] = n.weight;
            doubles[d + SHARE] = n.share;
            doubles[d + ETA] = n.eta;
            doubles[d + G] = n.g;
            doubles[d + COUNTED_RATE] = n.countedRate;
            doubles[d + D] = n.d;
            doubles[d + E] = n.e;
            doubles[d + B] = n.b;
            doubles[d + U] = n.u;
            System.arraycopy(a.uncountedResourceMs, 0, doubles, d + UNCOUNTED_MS, 3);
            doubles[d + ACTUAL] = a.actual;
            doubles[d + COUNTED] = a.counted;
            doubles[d + ENTITLED] = a.entitled;
            doubles[d + DEMAND] = a.demand;
            doubles[d + BORROWED] = a.borrowedRaw;
            doubles[d + LENT] = a.lent;
            doubles[d + BORROWED_FROM_SIBLINGS] = a.borrowedFromSiblings;
            doubles[d + MEM_ACTUAL] = a.memActual;
            doubles[d + MEM_COUNTED] = a.memCounted;
            doubles[d + MEM_ENTITLED] = a.memEntitled;
            doubles[d + PHI] = a.phi;
            doubles[d + QUANTUM_TOP_UP] = quantumTopUp;
        }

        /** The table of the rows added, every one of them. */
        AccountTable table() {
            if (next != paths.length) {
                throw new IllegalStateException(next + " rows added to a table of " + paths.length);
            }
            return new AccountTable(this);
        }
    }
}
