package io.fairledger.core.admission;

/**
 * Order of queued jobs for offers (Dimopoulos's dissertation (2018) Algorithm 6 line 10; "the priority policy is
 * pluggable", Justice (Dimopoulos et al., 2019) section III). Smaller compares first. Ties are broken by the caller by
 * submit time, then id.
 *
 * <p>
 * Contract that lets {@link IndexedAdmissionQueue} keep jobs of equal request in a fixed order: when two jobs have the
 * same {@code reqCpus}, {@link #compare} must depend on the TTDs alone, monotonically, in the direction
 * {@link #longerTtdFirstAtEqualRequest()} states, and return 0 only for equal TTDs.
 */
public interface PriorityPolicy {

    /** Compares job a ({@code reqA} CPUs, {@code ttdA} ms to deadline) with job b; TTDs are positive. */
    int compare(long reqA, long ttdA, long reqB, long ttdB);

    /** True when, among jobs of equal request, the one with the longer time to deadline goes first. */
    boolean longerTtdFirstAtEqualRequest();

    /** Short name used in options and reports. */
    String name();

    /**
     * The papers' default: priority {@code reqCpus / TTD}, smallest first (Dimopoulos's dissertation (2018) Algorithm 6
     * line 10): few CPUs and a distant deadline go first. Compared exactly as rationals with 128-bit products.
     */
    PriorityPolicy REQ_CPUS_PER_TTD = new PriorityPolicy() {
        @Override
        public int compare(long reqA, long ttdA, long reqB, long ttdB) {
            return compareProducts(reqA, ttdB, reqB, ttdA);
        }

        @Override
        public boolean longerTtdFirstAtEqualRequest() {
            return true;
        }

        @Override
        public String name() {
            return "req-per-ttd";
        }
    };

    /**
     * Shortest time to deadline first, then fewer CPUs (Justice (Dimopoulos et al., 2019) section III mentions it
     * performs similarly).
     */
    PriorityPolicy SHORTEST_TTD = new PriorityPolicy() {
        @Override
        public int compare(long reqA, long ttdA, long reqB, long ttdB) {
            int byTtd = Long.compare(ttdA, ttdB);
            return byTtd != 0 ? byTtd : Long.compare(reqA, reqB);
        }

        @Override
        public boolean longerTtdFirstAtEqualRequest() {
            return false;
        }

        @Override
        public String name() {
            return "shortest-ttd";
        }
    };

    /** The built-in policy called {@code name}. */
    static PriorityPolicy named(String name) {
        if (REQ_CPUS_PER_TTD.name().equals(name)) {
            return REQ_CPUS_PER_TTD;
        }
        if (SHORTEST_TTD.name().equals(name)) {
            return SHORTEST_TTD;
        }
        throw new IllegalArgumentException(
                "unknown priority policy '" + name + "', expected req-per-ttd or shortest-ttd");
    }

    /** Exact comparison of {@code a*b} with {@code c*d} for non-negative longs, without overflow. */
    static int compareProducts(long a, long b, long c, long d) {
        long high1 = Math.multiplyHigh(a, b);
        long high2 = Math.multiplyHigh(c, d);
        if (high1 != high2) {
            return Long.compare(high1, high2);
        }
        return Long.compareUnsigned(a * b, c * d);
    }
}
