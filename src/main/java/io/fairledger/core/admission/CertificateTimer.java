package io.fairledger.core.admission;

/** The last instant of a certificate: a feasibility one or a request one. */
record CertificateTimer(long atMillis, QueuedJob job, int version,
        boolean feasibility) implements Comparable<CertificateTimer> {
    boolean isCurrent() {
        return version == (feasibility ? job.feasibilityVersion : job.version);
    }

    @Override
    public int compareTo(CertificateTimer other) {
        return Long.compare(atMillis, other.atMillis);
    }
}
