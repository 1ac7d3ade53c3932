package io.fairledger.core.jobsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.JobRequest;

/** The shape Dimopoulos's dissertation (2018) section 5.3 reports for the Justice trace. */
class SyntheticWorkloadTest {

    @Test
    void shapedLikeTheJusticeTrace() {
        List<JobRequest> jobs = new SyntheticWorkload(50_000, 2.0, 30.0, 5000, 4).generate(7);
        double one = jobs.stream().filter(j -> j.tasks() == 1).count() / 50_000.0;
        double under10 = jobs.stream().filter(j -> j.tasks() < 10).count() / 50_000.0;
        double all = jobs.stream().mapToDouble(JobRequest::compTimeCpuSeconds).sum();
        double big = jobs.stream().filter(j -> j.tasks() > 1000).mapToDouble(JobRequest::compTimeCpuSeconds).sum();
        assertThat(one).isCloseTo(0.60, within(0.01));
        assertThat(under10).isCloseTo(0.70, within(0.01));
        assertThat(big / all).isGreaterThan(0.5);
        assertThat(jobs).isSortedAccordingTo(java.util.Comparator.comparingLong(JobRequest::submitMillis));
    }

    @Test
    void sameSeedSameTraceOtherSeedOtherTrace() {
        SyntheticWorkload w = new SyntheticWorkload(1000, 5, 30, 2000, 3);
        assertThat(w.generate(1)).isEqualTo(w.generate(1));
        assertThat(w.generate(1)).isNotEqualTo(w.generate(2));
    }
}
