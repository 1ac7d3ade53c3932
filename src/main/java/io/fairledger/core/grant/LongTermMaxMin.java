package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Long-term weighted max-min grants (LTRF eqs. 7, 9 and 11 and Algorithm 1, seed 004; DOMAIN.md section 7): choose
 * {@code 0 <= g_i <= demand} that lexicographically maximise the minimum of
 * {@code (accumulated_i + c_i(g_i) * D) / w_i}, where {@code c_i(g) = min(g, S_i) + eta_i * max(g - S_i, 0)} is the
 * counted rate of holding g (eq. 7) and D the grant interval. This is weighted water-filling on projected accumulated
 * counted usage.
 *
 * <h2>Method</h2> For a water level {@code lambda}, claimant i takes the largest g whose projected value is at most
 * {@code lambda}: 0 below {@code accumulated/w}, then linear with slope {@code w/D} up to its share, then slope
 * {@code w/(eta D)} up to its demand (a jump when {@code eta = 0} or {@code D = 0}). The total is piecewise linear
 * in lambda; one sort of the breakpoints and one sweep find the level where it meets what is available, exactly (no
 * bisection). Claimants jumping at that very level share the rest by weighted progressive filling
 * ({@link Jump}). Several resources
 * (dominant share, DRF): a claimant's allocation is its demand vector scaled by {@code g / dominantDemandShare}; the
 * level is raised until the first resource saturates, the claimants using it are frozen, and the rest continue, at
 * most one round per resource type.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>Work-conserving and never above demand: the result either meets every demand or saturates, for every claimant
 * not fully served, a resource that claimant uses.</li>
 * <li>Weight 0 (DOMAIN.md section 1: no entitlement, may only borrow): such claimants are served only from what the
 * weighted claimants leave, water-filled among themselves with equal weights and counted at their discount rate.</li>
 * <li>Order: by {@code accumulated / w} ascending, weight-0 claimants last by accumulated value, ties by id.</li>
 * </ul>
 * Complexity O(n log n) per resource type that saturates.
 */
public final class LongTermMaxMin implements GrantPolicy {

    /** Demand and capacity below this (in capacity units) are treated as met / saturated: floating-point noise. */
    public static final double EPSILON = 1e-9;

    @Override
    public Grants grant(GrantRequest request) {
        List<Claimant> cs = request.claimants();
        int n = cs.size();
        double[] cap = request.clusterCapacity();
        double[] remaining = request.available();
        int types = cap.length;
        double[] full = new double[n];
        double[][] perUnit = new double[n][types];
        for (int i = 0; i < n; i++) {
            Claimant c = cs.get(i);
            double dominant = 0;
            for (int r = 0; r < types; r++) {
                if (cap[r] > 0) {
                    dominant = Math.max(dominant, c.demandAt(r) / cap[r]);
                }
            }
            full[i] = dominant;
            if (dominant > 0) {
                for (int r = 0; r < types; r++) {
                    perUnit[i][r] = cap[r] > 0 ? c.demandAt(r) / dominant : 0;
                }
            }
        }
        double[] g = new double[n];
        boolean[] weighted = new boolean[n];
        for (int i = 0; i < n; i++) {
            weighted[i] = cs.get(i).weight() > 0;
        }
        fillTier(request, full, perUnit, remaining, g, weighted, true);
        fillTier(request, full, perUnit, remaining, g, weighted, false);
        List<Grants.Grant> grants = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double[] alloc = new double[types];
            for (int r = 0; r < types; r++) {
                alloc[r] = g[i] >= full[i] ? cs.get(i).demandAt(r) : g[i] * perUnit[i][r];
            }
            grants.add(new Grants.Grant(cs.get(i).id(), alloc, g[i]));
        }
        return new Grants(grants, order(cs));
    }

    /** Tenant order of LTRF Algorithm 1: by accumulated / weight, weight-0 last, ties by id. O(n log n). */
    static List<String> order(List<Claimant> cs) {
        int n = cs.size();
        int[] weightedIdx = new int[n];
        int[] zeroIdx = new int[n];
        double[] key = new double[n];
        int nw = 0;
        int nz = 0;
        for (int i = 0; i < n; i++) {
            Claimant c = cs.get(i);
            if (c.weight() > 0) {
                key[i] = c.accumulated() / c.weight();
                weightedIdx[nw++] = i;
            } else {
                key[i] = c.accumulated();
                zeroIdx[nz++] = i;
            }
        }
        List<String> ids = new ArrayList<>(n);
        appendSorted(cs, java.util.Arrays.copyOf(weightedIdx, nw), key, ids);
        appendSorted(cs, java.util.Arrays.copyOf(zeroIdx, nz), key, ids);
        return ids;
    }

    private static void appendSorted(List<Claimant> cs, int[] idx, double[] key, List<String> out) {
        PrimitiveSort.byKey(idx, key);
        int i = 0;
        while (i < idx.length) {
            int j = i + 1;
            while (j < idx.length && key[idx[j]] == key[idx[i]]) {
                j++;
            }
            if (j - i > 1) {
                List<String> tied = new ArrayList<>(j - i);
                for (int k = i; k < j; k++) {
                    tied.add(cs.get(idx[k]).id());
                }
                java.util.Collections.sort(tied);
                out.addAll(tied);
            } else {
                out.add(cs.get(idx[i]).id());
            }
            i = j;
        }
    }

    /** Water-fills one tier (weighted, or weight-0) into {@code g}, consuming {@code remaining}. */
    private static void fillTier(GrantRequest request, double[] full, double[][] perUnit, double[] remaining,
            double[] g, boolean[] weighted, boolean tier) {
        List<Claimant> cs = request.claimants();
        int types = remaining.length;
        int[] active = new int[cs.size()];
        int count = 0;
        for (int i = 0; i < cs.size(); i++) {
            if (weighted[i] == tier && full[i] > 0) {
                active[count++] = i;
            }
        }
        if (count == 0) {
            return;
        }
        active = java.util.Arrays.copyOf(active, count);
        Curves curves = new Curves(cs, full, request.interval(), tier);
        while (active.length > 0) {
            double bestLevel = Double.POSITIVE_INFINITY;
            int bestType = -1;
            Sweep.Result best = null;
            for (int r = 0; r < types; r++) {
                double need = 0;
                for (int i : active) {
                    need += full[i] * perUnit[i][r];
                }
                if (need <= remaining[r] + EPSILON) {
                    continue;
                }
                Sweep.Result res = Sweep.level(curves, active, perUnit, r, Math.max(0, remaining[r]));
                if (res.level() < bestLevel) {
                    bestLevel = res.level();
                    bestType = r;
                    best = res;
                }
            }
            if (best == null) {
                for (int i : active) {
                    g[i] = full[i];
                    for (int r = 0; r < types; r++) {
                        remaining[r] -= full[i] * perUnit[i][r];
                    }
                }
                return;
            }
            double level = best.level();
            double[] below = new double[active.length];
            double[] used = new double[types];
            for (int j = 0; j < active.length; j++) {
                below[j] = curves.below(active[j], level);
                for (int r = 0; r < types; r++) {
                    used[r] += below[j] * perUnit[active[j]][r];
                }
            }
            double[] extra = best.jumpRest() > 0
                    ? Jump.share(curves, active, perUnit, level, remaining, used)
                    : new double[active.length];
            boolean[] saturated = new boolean[types];
            for (int j = 0; j < active.length; j++) {
                for (int r = 0; r < types; r++) {
                    used[r] += extra[j] * perUnit[active[j]][r];
                }
            }
            for (int r = 0; r < types; r++) {
                saturated[r] = used[r] >= remaining[r] - EPSILON * Math.max(1, request.available()[r]);
            }
            if (best.jumpRest() == 0) {
                saturated[bestType] = true;
            }
            int[] next = new int[active.length];
            int kept = 0;
            for (int j = 0; j < active.length; j++) {
                int i = active[j];
                double value = Math.min(full[i], below[j] + extra[j]);
                boolean blocked = false;
                for (int r = 0; r < types; r++) {
                    blocked |= saturated[r] && perUnit[i][r] > 0;
                }
                if (blocked || value >= full[i] - EPSILON) {
                    g[i] = value;
                    for (int r = 0; r < types; r++) {
                        remaining[r] -= value * perUnit[i][r];
                    }
                } else {
                    next[kept++] = i;
                }
            }
            if (kept == active.length) {
                break;
            }
            active = java.util.Arrays.copyOf(next, kept);
        }
    }

    /**
     * Each claimant's g as a function of the water level lambda: breakpoints, slopes and the jump when the counted
     * rate is flat.
     */
    static final class Curves {
        final double[] weight;
        final double[] base;
        final double[] share;
        final double[] eta;
        final double[] full;
        final double interval;
        /** The level of the claimant's jump, NaN if it has none. */
        final double[] jumpLevel;
        /** The claimant's g just below its jump. */
        final double[] jumpFrom;

        Curves(List<Claimant> cs, double[] full, double interval, boolean weightedTier) {
            int n = cs.size();
            this.weight = new double[n];
            this.base = new double[n];
            this.share = new double[n];
            this.eta = new double[n];
            this.full = full;
            this.interval = interval;
            this.jumpLevel = new double[n];
            this.jumpFrom = new double[n];
            for (int i = 0; i < n; i++) {
                Claimant c = cs.get(i);
                weight[i] = weightedTier ? c.weight() : 1.0;
                share[i] = weightedTier ? c.share() : 0;
                base[i] = c.accumulated();
                eta[i] = c.discountRate();
                jumpLevel[i] = Double.NaN;
                if (interval == 0) {
                    jumpLevel[i] = base[i] / weight[i];
                    jumpFrom[i] = 0;
                } else if (full[i] > share[i] && eta[i] == 0) {
                    jumpLevel[i] = (base[i] + share[i] * interval) / weight[i];
                    jumpFrom[i] = share[i];
                }
            }
        }

        /** Breakpoints of claimant i: up to three (level, slope change, jump) triples appended via the sink. */
        void events(int i, double k, EventSink sink) {
            double w = weight[i];
            double b = base[i];
            double s = share[i];
            double d = full[i];
            if (interval == 0) {
                sink.add(b / w, 0, d * k);
                return;
            }
            double s1 = Math.min(s, d);
            double l0 = b / w;
            double l1 = (b + s1 * interval) / w;
            double slope1 = s1 > 0 ? k * w / interval : 0;
            if (s1 > 0) {
                sink.add(l0, slope1, 0);
            }
            if (d > s) {
                if (eta[i] > 0) {
                    double slope2 = k * w / (eta[i] * interval);
                    double l2 = (b + (s + eta[i] * (d - s)) * interval) / w;
                    sink.add(l1, slope2 - slope1, 0);
                    sink.add(l2, -slope2, 0);
                } else {
                    sink.add(l1, -slope1, (d - s) * k);
                }
            } else if (s1 > 0) {
                sink.add(l1, -slope1, 0);
            }
        }

        /** g of claimant i at level lambda, not counting a jump located exactly at lambda. */
        double below(int i, double lambda) {
            if (jumpLevel[i] == lambda) {
                return jumpFrom[i];
            }
            if (interval == 0) {
                return lambda > jumpLevel[i] ? full[i] : 0;
            }
            double c = (lambda * weight[i] - base[i]) / interval;
            if (c <= 0) {
                return 0;
            }
            double s = share[i];
            double d = full[i];
            if (!Double.isNaN(jumpLevel[i])) {
                // decide by the level, not by c, so rounding in c cannot take the jump early
                return lambda > jumpLevel[i] ? d : Math.min(c, s);
            }
            if (c <= s || d <= s) {
                return Math.min(c, d);
            }
            return Math.min(d, s + (c - s) / eta[i]);
        }
    }

    /** Receives breakpoints. */
    interface EventSink {
        void add(double level, double slopeChange, double jump);
    }

    /** The sweep over sorted breakpoints. */
    static final class Sweep {

        /** The level where the total reaches the target; {@code jumpRest} is what claimants jumping there share. */
        record Result(double level, double jumpRest) {
        }

        static Result level(Curves curves, int[] active, double[][] perUnit, int type, double target) {
            int cap = active.length * 3;
            double[] lv = new double[cap];
            double[] ds = new double[cap];
            double[] dj = new double[cap];
            int[] count = {0};
            for (int i : active) {
                double k = perUnit[i][type];
                if (k > 0) {
                    curves.events(i, k, (l, s, j) -> {
                        lv[count[0]] = l;
                        ds[count[0]] = s;
                        dj[count[0]] = j;
                        count[0]++;
                    });
                }
            }
            int m = count[0];
            PrimitiveSort.together(lv, ds, dj, m);
            double cur = 0;
            double slope = 0;
            double prev = m > 0 ? lv[0] : 0;
            int e = 0;
            while (e < m) {
                double level = lv[e];
                double before = cur + slope * (level - prev);
                if (before >= target - EPSILON && slope > 0) {
                    // never past this breakpoint: rounding must not carry the level over a jump located here
                    return new Result(Math.min(level, prev + (target - cur) / slope), 0);
                }
                cur = before;
                prev = level;
                double jumps = 0;
                double slopes = 0;
                while (e < m && lv[e] == level) {
                    jumps += dj[e];
                    slopes += ds[e];
                    e++;
                }
                if (jumps > 0 && cur + jumps >= target - EPSILON) {
                    return new Result(level, Math.max(0, target - cur));
                }
                cur += jumps;
                slope += slopes;
            }
            return new Result(slope > 0 ? prev + (target - cur) / slope : Double.POSITIVE_INFINITY, 0);
        }
    }

    /**
     * Claimants whose jump (eta = 0 or D = 0) sits exactly at the level share what is left: weighted progressive
     * filling of their extra g, {@code extra_j = min(jump_j, theta w_j)}, raising theta until a resource saturates,
     * freezing the claimants that use it, and continuing with the others.
     */
    static final class Jump {
        private Jump() {
        }

        static double[] share(Curves curves, int[] active, double[][] perUnit, double level, double[] remaining,
                double[] usedBelow) {
            int m = active.length;
            int types = remaining.length;
            double[] extra = new double[m];
            boolean[] open = new boolean[m];
            int openCount = 0;
            for (int j = 0; j < m; j++) {
                int i = active[j];
                if (curves.jumpLevel[i] == level && curves.full[i] > curves.jumpFrom[i]) {
                    open[j] = true;
                    openCount++;
                }
            }
            double[] avail = new double[types];
            for (int r = 0; r < types; r++) {
                avail[r] = remaining[r] - usedBelow[r];
            }
            while (openCount > 0) {
                double theta = Double.POSITIVE_INFINITY;
                int limiting = -1;
                for (int r = 0; r < types; r++) {
                    double t = thetaFor(curves, active, perUnit, open, r, Math.max(0, avail[r]));
                    if (t < theta) {
                        theta = t;
                        limiting = r;
                    }
                }
                for (int j = 0; j < m; j++) {
                    if (open[j]) {
                        int i = active[j];
                        double cap = curves.full[i] - curves.jumpFrom[i];
                        extra[j] = Double.isInfinite(theta) ? cap : Math.min(cap, theta * curves.weight[i]);
                    }
                }
                int closed = 0;
                for (int j = 0; j < m; j++) {
                    if (!open[j]) {
                        continue;
                    }
                    int i = active[j];
                    boolean capped = extra[j] >= curves.full[i] - curves.jumpFrom[i];
                    boolean blocked = limiting >= 0 && perUnit[i][limiting] > 0;
                    if (capped || blocked) {
                        open[j] = false;
                        openCount--;
                        closed++;
                        for (int r = 0; r < types; r++) {
                            avail[r] -= extra[j] * perUnit[i][r];
                        }
                    }
                }
                if (closed == 0) {
                    break;
                }
            }
            return extra;
        }

        /** The largest theta at which the open claimants' extra usage of {@code type} fits {@code avail}. */
        private static double thetaFor(Curves curves, int[] active, double[][] perUnit, boolean[] open, int type,
                double avail) {
            List<Integer> users = new ArrayList<>();
            for (int j = 0; j < active.length; j++) {
                if (open[j] && perUnit[active[j]][type] > 0) {
                    users.add(j);
                }
            }
            if (users.isEmpty()) {
                return Double.POSITIVE_INFINITY;
            }
            users.sort(Comparator.comparingDouble(
                    j -> (curves.full[active[j]] - curves.jumpFrom[active[j]]) / curves.weight[active[j]]));
            double wk = 0;
            for (int j : users) {
                wk += curves.weight[active[j]] * perUnit[active[j]][type];
            }
            double rest = avail;
            for (int j : users) {
                int i = active[j];
                double capTheta = (curves.full[i] - curves.jumpFrom[i]) / curves.weight[i];
                double theta = rest / wk;
                if (theta <= capTheta) {
                    return theta;
                }
                rest -= (curves.full[i] - curves.jumpFrom[i]) * perUnit[i][type];
                wk -= curves.weight[i] * perUnit[i][type];
            }
            return Double.POSITIVE_INFINITY;
        }
    }

    /** An allocation-free sort of an index array by double keys (the sweep's hot path). */
    static final class PrimitiveSort {
        private PrimitiveSort() {
        }

        static void byKey(int[] idx, double[] key) {
            quick(idx, key, 0, idx.length - 1);
        }

        /** Sorts the first {@code n} entries of {@code key} ascending, moving {@code a} and {@code b} along. */
        static void together(double[] key, double[] a, double[] b, int n) {
            quickTogether(key, a, b, 0, n - 1);
        }

        private static void quickTogether(double[] key, double[] a, double[] b, int lo, int hi) {
            while (hi - lo > 16) {
                int mid = (lo + hi) >>> 1;
                double pivot = median(key[lo], key[mid], key[hi]);
                int i = lo;
                int j = hi;
                while (i <= j) {
                    while (key[i] < pivot) {
                        i++;
                    }
                    while (key[j] > pivot) {
                        j--;
                    }
                    if (i <= j) {
                        swap(key, i, j);
                        swap(a, i, j);
                        swap(b, i, j);
                        i++;
                        j--;
                    }
                }
                if (j - lo < hi - i) {
                    quickTogether(key, a, b, lo, j);
                    lo = i;
                } else {
                    quickTogether(key, a, b, i, hi);
                    hi = j;
                }
            }
            for (int i = lo + 1; i <= hi; i++) {
                double k = key[i];
                double va = a[i];
                double vb = b[i];
                int j = i - 1;
                while (j >= lo && key[j] > k) {
                    key[j + 1] = key[j];
                    a[j + 1] = a[j];
                    b[j + 1] = b[j];
                    j--;
                }
                key[j + 1] = k;
                a[j + 1] = va;
                b[j + 1] = vb;
            }
        }

        private static void swap(double[] x, int i, int j) {
            double t = x[i];
            x[i] = x[j];
            x[j] = t;
        }

        private static void quick(int[] a, double[] key, int lo, int hi) {
            while (hi - lo > 16) {
                int mid = (lo + hi) >>> 1;
                double pivot = median(key[a[lo]], key[a[mid]], key[a[hi]]);
                int i = lo;
                int j = hi;
                while (i <= j) {
                    while (key[a[i]] < pivot) {
                        i++;
                    }
                    while (key[a[j]] > pivot) {
                        j--;
                    }
                    if (i <= j) {
                        int t = a[i];
                        a[i] = a[j];
                        a[j] = t;
                        i++;
                        j--;
                    }
                }
                if (j - lo < hi - i) {
                    quick(a, key, lo, j);
                    lo = i;
                } else {
                    quick(a, key, i, hi);
                    hi = j;
                }
            }
            for (int i = lo + 1; i <= hi; i++) {
                int v = a[i];
                double k = key[v];
                int j = i - 1;
                while (j >= lo && key[a[j]] > k) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = v;
            }
        }

        private static double median(double x, double y, double z) {
            return Math.max(Math.min(x, y), Math.min(Math.max(x, y), z));
        }
    }

    @Override
    public String toString() {
        return "LongTermMaxMin";
    }
}
