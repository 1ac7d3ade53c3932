package io.fairledger.core.admission;

/**
 * The exact searches that set the limits of a certificate of {@link IndexedAdmissionQueue}: how far the global fraction
 * may move, and until which TTD, before a job's request (or feasibility) can change. Requests are non-decreasing in the
 * fraction and in urgency ({@link RequestEstimator}), so a limit is proved by exact evaluations of the estimator at its
 * corners, never by a formula. The estimator's guesses only choose where to look: a fraction limit is taken halfway
 * towards the guess and kept when one evaluation confirms it (otherwise the current fraction, always valid); a TTD
 * limit gallops from the guess, then bisects. O(1) evaluations for a good guess, O(log ttd) otherwise.
 */
final class CertificateSearch {

    private CertificateSearch() {
    }

    /**
     * The largest fraction, halfway to the estimator's guess of the next boundary, up to which the job needs at most
     * {@code cpus} at this TTD, proved by one evaluation; {@code fraction} itself when the guess fails.
     */
    static double upTo(RequestEstimator estimator, QueuedJob job, long ttd, long cpus, double fraction) {
        double upTo = halfwayTo(fraction, estimator.fractionBoundaryGuess(job, ttd, cpus));
        if (!(upTo >= fraction) || estimator.requiredCpus(job, ttd, upTo) > cpus) {
            return fraction;
        }
        return upTo;
    }

    /**
     * The smallest fraction from which the job needs at least {@code request} at this TTD (halfway to the guess of
     * the boundary below, proved by one evaluation); minus infinity for a request of 1, which holds everywhere.
     */
    static double from(RequestEstimator estimator, QueuedJob job, long ttd, long request, double fraction) {
        if (request <= 1) {
            return Double.NEGATIVE_INFINITY; // requests are at least 1
        }
        double from = halfwayTo(fraction, estimator.fractionBoundaryGuess(job, ttd, request - 1));
        if (!(from <= fraction) || estimator.requiredCpus(job, ttd, from) < request) {
            return fraction;
        }
        return from;
    }

    private static double halfwayTo(double from, double to) {
        return Double.isInfinite(to) ? to : from + (to - from) / 2;
    }

    /**
     * A TTD at which to look at the job again: at least {@link #lastTtdAbove}, so no change is missed (looking early
     * only re-evaluates an unchanged job). The estimator's guess is taken when one exact evaluation proves it safe,
     * which is the usual case; otherwise the exact search runs. Requires {@code requiredCpus(ttd, f) <= request}.
     */
    static long changeTtd(RequestEstimator estimator, QueuedJob job, long ttd, long request, double f) {
        long guess = estimator.ttdBoundaryGuess(job, request, f);
        if (guess >= 0 && guess < ttd - 1 && estimator.requiredCpus(job, guess + 1, f) <= request) {
            return guess;
        }
        return lastTtdAbove(estimator, job, ttd, request, f);
    }

    /**
     * Largest {@code x} in {@code [1, ttd - 1]} with {@code requiredCpus(x, f) > request}, or 0 when there is none
     * (the next change is then the deadline itself). Galloping from the estimator's guess, then bisection; exact
     * because {@code requiredCpus} is monotone.
     */
    static long lastTtdAbove(RequestEstimator estimator, QueuedJob job, long ttd, long request, double f) {
        if (ttd <= 1 || estimator.requiredCpus(job, 1, f) <= request) {
            return 0;
        }
        long guess = Math.max(1, Math.min(ttd - 1, estimator.ttdBoundaryGuess(job, request, f)));
        long above; // requiredCpus(above) > request
        long notAbove; // requiredCpus(notAbove) <= request
        if (estimator.requiredCpus(job, guess, f) > request) {
            above = guess;
            notAbove = ttd;
            for (long step = 1; above + step < notAbove; step <<= 1) {
                if (estimator.requiredCpus(job, above + step, f) > request) {
                    above += step;
                } else {
                    notAbove = above + step;
                    break;
                }
            }
        } else {
            notAbove = guess;
            above = 1;
            for (long step = 1; notAbove - step > 1; step <<= 1) {
                if (estimator.requiredCpus(job, notAbove - step, f) <= request) {
                    notAbove -= step;
                } else {
                    above = notAbove - step;
                    break;
                }
            }
        }
        while (notAbove - above > 1) {
            long mid = above + (notAbove - above) / 2;
            if (estimator.requiredCpus(job, mid, f) > request) {
                above = mid;
            } else {
                notAbove = mid;
            }
        }
        return above;
    }
}
