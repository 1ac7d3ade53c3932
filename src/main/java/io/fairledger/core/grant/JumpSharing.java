package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Claimants whose jump (eta = 0 or D = 0) sits exactly at the level share what is left: weighted progressive
 * filling of their extra g, {@code extra_j = min(jump_j, theta w_j)}, raising theta until a resource saturates,
 * freezing the claimants that use it, and continuing with the others (the tie case of {@link LongTermMaxMin}). At most
 * one round per resource type that saturates, each O(m log m) for the m claimants at the level.
 */
final class JumpSharing {
    private JumpSharing() {
    }

    static double[] share(WaterLevelCurves curves, int[] active, double[][] perUnit, double level, double[] remaining,
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
    private static double thetaFor(WaterLevelCurves curves, int[] active, double[][] perUnit, boolean[] open, int type,
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
