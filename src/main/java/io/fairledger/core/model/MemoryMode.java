package io.fairledger.core.model;

/**
 * How far back "long-term" reaches for scheduling values and fairness degrees (docs/domain.md section 4). Statements
 * are cut per calendar period whatever the mode.
 */
public sealed interface MemoryMode {

    /** F-LTMM: accumulate since the cluster was registered (LTRF section 4.3.1, Tang et al., 2014). */
    record Full() implements MemoryMode {
    }

    /**
     * S-LTMM (LTRF eq. 12, Tang et al., 2014): rounds of {@code lengthMs} starting at {@code originMs}; at a boundary
     * the accumulated values, arrivals and PAR restart and a task spanning the boundary counts from it (eq. 15).
     */
    record Rounds(long lengthMs, long originMs) implements MemoryMode {
        public Rounds {
            if (lengthMs <= 0) {
                throw new IllegalArgumentException("round length must be > 0 ms, got " + lengthMs);
            }
        }

        /** Index of the round containing {@code t} (floor division, so instants before the origin work too). */
        public long roundOf(long t) {
            return Math.floorDiv(t - originMs, lengthMs);
        }

        /** Start instant of round {@code index}. */
        public long startOf(long index) {
            return originMs + index * lengthMs;
        }
    }

    /**
     * Beyond the paper, as Slurm/HTCondor/Kueue do: every accumulated value decays with half-life {@code halfLifeMs}:
     * {@code F(t+dt) = F(t) 2^(-dt/H) + integral of g(s) 2^(-(t+dt-s)/H) ds}.
     */
    record Decay(long halfLifeMs) implements MemoryMode {
        public Decay {
            if (halfLifeMs <= 0) {
                throw new IllegalArgumentException("half-life must be > 0 ms, got " + halfLifeMs);
            }
        }
    }

    /** The default of docs/domain.md section 4: rounds of 24 h from the epoch. */
    static MemoryMode defaultRounds() {
        return new Rounds(24L * 3600 * 1000, 0);
    }
}
