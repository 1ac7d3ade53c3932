package io.fairledger.core.jobsim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.function.IntFunction;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.BaselineFairShare;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.ReactiveFairShare;
import io.fairledger.core.deadline.DeadlineGenerator;
import io.fairledger.core.deadline.DeadlineModel;

/** The simulator's class-based fluid fair share decides exactly as the straightforward per-job reference. */
class ClassBasedFairShareTest {

    @Property(tries = 60)
    void sameOutcomesAsTheReference(@ForAll @IntRange(min = 1, max = 200) int jobs,
            @ForAll @IntRange(min = 1, max = 300) int capacity, @ForAll long seed) {
        List<JobRequest> trace = new SyntheticWorkload(jobs, 3, 20, 1500, 3).generate(seed);
        trace = new DeadlineGenerator(DeadlineModel.JOCKEY_1X_2X, seed).assign(trace, capacity);
        for (IntFunction<AdmissionPolicy> policy : List.<IntFunction<AdmissionPolicy>>of(BaselineFairShare::new,
                ReactiveFairShare::new, Justice::new)) {
            SimulationResult fast = new JobSimulator().run(trace, policy.apply(capacity));
            SimulationResult reference = new ReferenceJobSimulator().run(trace, policy.apply(capacity));
            for (int i = 0; i < trace.size(); i++) {
                JobOutcome a = fast.jobs().get(i);
                JobOutcome b = reference.jobs().get(i);
                assertThat(a.outcome()).as(a.id()).isEqualTo(b.outcome());
                assertThat(a.finishMillis()).as(a.id()).isEqualTo(b.finishMillis());
                assertThat(a.consumedCpuSeconds()).as(a.id()).isCloseTo(b.consumedCpuSeconds(), within(1e-6));
            }
            assertThat(fast.summary().fairness()).isCloseTo(reference.summary().fairness(), within(1e-9));
            assertThat(fast.summary().equality()).isCloseTo(reference.summary().equality(), within(1e-9));
            assertThat(fast.summary().utilization()).isCloseTo(reference.summary().utilization(), within(1e-9));
        }
    }
}
