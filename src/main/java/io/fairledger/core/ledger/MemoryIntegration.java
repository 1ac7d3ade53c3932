package io.fairledger.core.ledger;

import io.fairledger.core.model.MemoryMode;

/**
 * How a node's memory integrals (scheduling values: actual, counted and entitled usage, and its early-bird top-up
 * {@code phi}) advance over an interval of constant rates, one implementation per {@link MemoryMode}: full memory
 * accumulates since registration (F-LTMM, LTRF section 4.3.1), rounds restart at each boundary (S-LTMM, LTRF eqs. 12 and
 * 15), decay halves everything every half-life. O(1) per advance.
 */
sealed interface MemoryIntegration {

    /** The integration of {@code mode}. */
    static MemoryIntegration of(MemoryMode mode) {
        if (mode instanceof MemoryMode.Rounds rounds) {
            return new Rounds(rounds);
        }
        if (mode instanceof MemoryMode.Decay decay) {
            return new Decay(decay.halfLifeMs());
        }
        return new Full();
    }

    /** Advances the memory part of {@code acc} of {@code n} by {@code dt > 0} ms to {@code t}. */
    void advance(TenantNode n, Accumulators acc, long t, long dt);

    /** Sets up the memory part of a node created at {@code t}. */
    default void start(Accumulators acc, long t) {
    }

    /** F-LTMM: plain integrals since registration. */
    record Full() implements MemoryIntegration {
        @Override
        public void advance(TenantNode n, Accumulators acc, long t, long dt) {
            acc.memActual += n.g * dt;
            acc.memCounted += n.countedRate * dt;
            acc.memEntitled += n.e * dt;
        }
    }

    /** S-LTMM: integrals within the current round. */
    record Rounds(MemoryMode.Rounds rounds) implements MemoryIntegration {
        @Override
        public void advance(TenantNode n, Accumulators acc, long t, long dt) {
            if (t >= acc.roundEnd) {
                long round = rounds.roundOf(t);
                // eq. 12/15: everything restarts at the boundary; what ran across it counts from it
                long since = t - rounds.startOf(round);
                acc.memActual = n.g * since;
                acc.memCounted = n.countedRate * since;
                acc.memEntitled = n.e * since;
                acc.phi = 0;
                acc.arrived = n.active();
                acc.arrivalAt = rounds.startOf(round);
                acc.round = round;
                acc.roundEnd = rounds.startOf(round + 1);
            } else {
                acc.memActual += n.g * dt;
                acc.memCounted += n.countedRate * dt;
                acc.memEntitled += n.e * dt;
            }
        }

        @Override
        public void start(Accumulators acc, long t) {
            acc.round = rounds.roundOf(t);
            acc.roundEnd = rounds.startOf(acc.round + 1);
        }
    }

    /**
     * Exponential decay with half-life H: {@code F(t+dt) = F(t) 2^(-dt/H) + integral of g(s) 2^(-(t+dt-s)/H) ds}.
     */
    record Decay(double halfLifeMs) implements MemoryIntegration {
        private static final double LN2 = Math.log(2.0);

        @Override
        public void advance(TenantNode n, Accumulators acc, long t, long dt) {
            double h = halfLifeMs;
            double x = -dt * LN2 / h;
            double keep = Math.exp(x);
            // expm1 keeps 1 - 2^(-dt/H) accurate when dt is tiny against H
            double gain = h / LN2 * -Math.expm1(x);
            acc.memActual = acc.memActual * keep + n.g * gain;
            acc.memCounted = acc.memCounted * keep + n.countedRate * gain;
            acc.memEntitled = acc.memEntitled * keep + n.e * gain;
            acc.phi *= keep;
        }
    }
}
