package io.fairledger.core.admission;

import java.util.Comparator;

/** A fraction limit of a certificate. */
record CertificateBound(double fraction, QueuedJob job, int version) {
    static final Comparator<CertificateBound> ASCENDING = (a, b) -> Double.compare(a.fraction, b.fraction);
    static final Comparator<CertificateBound> DESCENDING = ASCENDING.reversed();
}
