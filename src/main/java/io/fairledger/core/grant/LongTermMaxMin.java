package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.List;

/**
 * Long-term weighted max-min grants (LTRF eqs. 7, 9 and 11 and Algorithm 1, Tang et al., 2014; docs/domain.md
 * section 7): choose {@code 0 <= g_i <= demand} that lexicographically maximise the minimum of
 * {@code (accumulated_i + c_i(g_i) * D) / w_i}, where {@code c_i(g) = min(g, S_i) + eta_i * max(g - S_i, 0)} is the
 * counted rate of holding g (eq. 7) and D the grant interval. This is weighted water-filling on projected accumulated
 * counted usage.
 *
 * <h2>Method</h2> For a water level {@code lambda}, claimant i takes the largest g whose projected value is at most
 * {@code lambda}: 0 below {@code accumulated/w}, then linear with slope {@code w/D} up to its share, then slope
 * {@code w/(eta D)} up to its demand (a jump when {@code eta = 0} or {@code D = 0}). The total is piecewise linear
 * in lambda; one sort of the breakpoints and one sweep find the level where it meets what is available, exactly (no
 * bisection). Claimants jumping at that very level share the rest by weighted progressive filling
 * ({@link JumpSharing}). Several resources
 * (dominant share, DRF): a claimant's allocation is its demand vector scaled by {@code g / dominantDemandShare}; the
 * level is raised until the first resource saturates, the claimants using it are frozen, and the rest continue, at
 * most one round per resource type.
 *
 * <h2>Rules</h2>
 * <ul>
 * <li>Work-conserving and never above demand: the result either meets every demand or saturates, for every claimant
 * not fully served, a resource that claimant uses.</li>
 * <li>Weight 0 (docs/domain.md section 1: no entitlement, may only borrow): such claimants are served only from what
 * the weighted claimants leave, water-filled among themselves with equal weights and counted at their discount
 * rate.</li>
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
        WaterLevelCurves curves = new WaterLevelCurves(cs, full, request.interval(), tier);
        while (active.length > 0) {
            double bestLevel = Double.POSITIVE_INFINITY;
            int bestType = -1;
            WaterLevelSweep.Result best = null;
            for (int r = 0; r < types; r++) {
                double need = 0;
                for (int i : active) {
                    need += full[i] * perUnit[i][r];
                }
                if (need <= remaining[r] + EPSILON) {
                    continue;
                }
                WaterLevelSweep.Result res = WaterLevelSweep.level(curves, active, perUnit, r,
                        Math.max(0, remaining[r]));
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
                    ? JumpSharing.share(curves, active, perUnit, level, remaining, used)
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

    @Override
    public String toString() {
        return "LongTermMaxMin";
    }
}
