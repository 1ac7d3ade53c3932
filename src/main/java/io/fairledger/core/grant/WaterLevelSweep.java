package io.fairledger.core.grant;

/**
 * The sweep over sorted breakpoints of the piecewise-linear total {@code sum_i g_i(lambda)} of {@link LongTermMaxMin}:
 * one sort and one pass find the exact water level where the total meets what is available. O(n log n).
 */
final class WaterLevelSweep {

    /** The level where the total reaches the target; {@code jumpRest} is what claimants jumping there share. */
    record Result(double level, double jumpRest) {
    }

    static Result level(WaterLevelCurves curves, int[] active, double[][] perUnit, int type, double target) {
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
            if (before >= target - LongTermMaxMin.EPSILON && slope > 0) {
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
            if (jumps > 0 && cur + jumps >= target - LongTermMaxMin.EPSILON) {
                return new Result(level, Math.max(0, target - cur));
            }
            cur += jumps;
            slope += slopes;
        }
        return new Result(slope > 0 ? prev + (target - cur) / slope : Double.POSITIVE_INFINITY, 0);
    }
}
