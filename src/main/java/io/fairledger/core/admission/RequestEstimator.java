package io.fairledger.core.admission;

/**
 * The CPUs a queued job needs, as its time to deadline shrinks ({@code ESTIMATE_REQ}, Dimopoulos's dissertation (2018)
 * Algorithm 6 lines 21-30).
 *
 * <p>
 * Contract that lets {@link IndexedAdmissionQueue} avoid rescanning the queue when the estimator learns: the requests
 * depend on the estimator's state only through {@link #bootstrapping()} and one global scalar, {@link #fraction()}
 * (Justice's {@code allocCPUFrac}, PYTHIA's {@code CPUFrac}); {@link #requiredCpus(QueuedJob, long, double)} gives
 * the request at any fraction, non-decreasing in the fraction and non-increasing in the TTD. Estimators without such
 * a scalar (Oracle) return a constant fraction and ignore it.
 */
interface RequestEstimator {

    /** True while the policy has too little history: requests are {@code maxCPUs} and a job may get less. */
    boolean bootstrapping();

    /** The global scalar the requests scale with now; finite and not negative. */
    double fraction();

    /**
     * {@code reqCpus} for {@code job} with {@code ttdMillis > 0} left, at the given fraction (the estimator's other
     * state as it is now); non-increasing in {@code ttdMillis}, non-decreasing in {@code fraction}, at least 1. A
     * value above {@code maxCPUs} means the job is infeasible.
     */
    long requiredCpus(QueuedJob job, long ttdMillis, double fraction);

    /** {@code reqCpus} at the current fraction. */
    default long requiredCpus(QueuedJob job, long ttdMillis) {
        return requiredCpus(job, ttdMillis, fraction());
    }

    /**
     * True when requests depend on a job only through its {@code maxCPUs} and its urgency {@link
     * QueuedJob#urgency(long)}, non-decreasingly in the urgency, as {@link #cpusAtUrgency} gives them (Justice,
     * PYTHIA); false when they do not (Oracle). Lets {@link IndexedAdmissionQueue} prove with two evaluations that every job of
     * one {@code maxCPUs} needs the same CPUs.
     */
    default boolean scalesWithUrgency() {
        return false;
    }

    /**
     * When {@link #scalesWithUrgency()}: the request of any job of {@code maxCpus} whose urgency is {@code urgency},
     * that is {@code requiredCpus(job, ttd, fraction)} for every job and TTD with {@code job.urgency(ttd) ==
     * urgency}; non-decreasing in the urgency and the fraction.
     */
    default long cpusAtUrgency(int maxCpus, double urgency, double fraction) {
        throw new UnsupportedOperationException("requests do not scale with urgency alone");
    }

    /**
     * A lower bound of {@link #requiredCpus(QueuedJob, long, double)} over every job with this {@code maxCpus} and
     * every {@code ttdMillis} in {@code [1, deadline]} (that is, from its submission on); non-decreasing in
     * {@code maxCpus}.
     */
    long minimalCpus(int maxCpus, double fraction);

    /**
     * A guess of the largest TTD at which {@link #requiredCpus(QueuedJob, long, double)} exceeds {@code request}; only
     * a starting point for an exact search, so any value is correct, a close one is fast.
     */
    long ttdBoundaryGuess(QueuedJob job, long request, double fraction);

    /**
     * A guess of the largest fraction at which {@link #requiredCpus(QueuedJob, long, double)} with {@code ttdMillis}
     * left is at most {@code request}: positive infinity when every fraction is, negative infinity when none is. Only
     * a candidate: callers verify it with an exact evaluation.
     */
    double fractionBoundaryGuess(QueuedJob job, long ttdMillis, long request);
}
