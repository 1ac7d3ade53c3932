package io.fairledger.core.grant;

import java.util.List;

/**
 * Each claimant's g as a function of the water level lambda in {@link LongTermMaxMin} (LTRF eqs. 7 and 11): 0 below
 * {@code accumulated / w}, slope {@code w / D} up to its share, slope {@code w / (eta D)} up to its demand, and a jump
 * where the counted rate is flat ({@code eta = 0} or {@code D = 0}). Piecewise linear and non-decreasing in lambda, so
 * at most three breakpoints per claimant describe it. O(1) per claimant and query.
 */
final class WaterLevelCurves {
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

    WaterLevelCurves(List<Claimant> cs, double[] full, double interval, boolean weightedTier) {
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

    /** Receives breakpoints. */
    interface EventSink {
        void add(double level, double slopeChange, double jump);
    }
}
