package io.fairledger.core.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

/** What every {@link AdmissionPolicy} promises, whatever its algorithm. */
abstract class AdmissionPolicyContractTest {

    abstract AdmissionPolicy create(int capacity);

    private static JobRequest job(String id, long submit, int tasks) {
        return new JobRequest(id, submit, tasks, 100_000, tasks * 10.0, "t");
    }

    @Test
    void rejectsADuplicateJobId() {
        AdmissionPolicy policy = create(4);
        policy.submit(job("a", 0, 2));
        assertThatThrownBy(() -> policy.submit(job("a", 0, 2))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a");
    }

    @Test
    void rejectsTimeGoingBackwards() {
        AdmissionPolicy policy = create(4);
        policy.decide(1000);
        assertThatThrownBy(() -> policy.decide(999)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("backwards");
    }

    @Test
    void rejectsTheCompletionOfAJobThatIsNotRunning() {
        AdmissionPolicy policy = create(4);
        assertThatThrownBy(() -> policy.complete(new JobCompletion("ghost", 0, 1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ghost");
    }

    @Test
    void theFirstJobOnAnEmptyClusterStartsAtOnceWithinItsCap() {
        AdmissionPolicy policy = create(4);
        List<Decision> decisions = policy.submitAndDecide(job("a", 0, 3));
        assertThat(decisions).hasSize(1);
        assertThat(decisions.get(0)).isInstanceOfSatisfying(Decision.Admit.class,
                admit -> assertThat(admit.cpus()).isBetween(1, 3));
    }

    @Test
    void admissionsNeverExceedCapacityAndCompletionsFreeCpus() {
        AdmissionPolicy policy = create(4);
        for (int i = 0; i < 5; i++) {
            policy.submit(job("j" + i, 0, 3));
        }
        int admitted = policy.decide(0).stream().filter(Decision.Admit.class::isInstance)
                .mapToInt(d -> ((Decision.Admit) d).cpus()).sum();
        if (policy.allocationModel() == AllocationModel.FIXED) {
            assertThat(admitted).isLessThanOrEqualTo(4);
            assertThat(policy.freeCpus()).isEqualTo(4 - admitted);
        }
        assertThat(policy.capacity()).isEqualTo(4);
    }

    @Test
    void refusesAnEmptyCluster() {
        assertThatThrownBy(() -> create(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("capacity");
    }
}

class JusticeContractTest extends AdmissionPolicyContractTest {
    @Override
    AdmissionPolicy create(int capacity) {
        return new Justice(capacity);
    }
}

class PythiaContractTest extends AdmissionPolicyContractTest {
    @Override
    AdmissionPolicy create(int capacity) {
        return new Pythia(capacity);
    }
}

class OracleContractTest extends AdmissionPolicyContractTest {
    @Override
    AdmissionPolicy create(int capacity) {
        return new Oracle(capacity);
    }
}

class BaselineFairShareContractTest extends AdmissionPolicyContractTest {
    @Override
    AdmissionPolicy create(int capacity) {
        return new BaselineFairShare(capacity);
    }
}

class ReactiveFairShareContractTest extends AdmissionPolicyContractTest {
    @Override
    AdmissionPolicy create(int capacity) {
        return new ReactiveFairShare(capacity);
    }
}
