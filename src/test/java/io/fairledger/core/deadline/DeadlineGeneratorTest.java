package io.fairledger.core.deadline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import io.fairledger.core.admission.JobRequest;

class DeadlineGeneratorTest {

    /** 4 tasks, 400 CPU-s: T = 100 s on a cluster of at least 4 CPUs. */
    private static List<JobRequest> jobs(int n) {
        List<JobRequest> jobs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            jobs.add(new JobRequest(String.format("j%05d", i), i, 4, 1, 400, ""));
        }
        return jobs;
    }

    private static double[] multipliers(DeadlineModel model, int n) {
        return new DeadlineGenerator(model, 42).assign(jobs(n), 10).stream()
                .mapToDouble(j -> j.deadlineMillis() / 100_000.0).toArray();
    }

    @Test
    void fixedModelsMultiplyTheEmptyClusterRuntime() {
        assertThat(multipliers(DeadlineModel.FIXED_1X, 3)).containsExactly(1, 1, 1);
        assertThat(multipliers(DeadlineModel.FIXED_2X, 3)).containsExactly(2, 2, 2);
        // capacity below the task count stretches T: 400 CPU-s on 2 CPUs = 200 s
        assertThat(new DeadlineGenerator(DeadlineModel.FIXED_1X, 1).assign(jobs(1), 2).get(0).deadlineMillis())
                .isEqualTo(200_000);
    }

    @Test
    void twoPointModelsDrawTheirValuesWithTheirProbabilities() {
        double[] jockey = multipliers(DeadlineModel.JOCKEY_2X_4X, 20_000);
        assertThat(jockey).containsOnly(2, 4);
        assertThat(IntStream.range(0, jockey.length).filter(i -> jockey[i] == 4).count() / 20_000.0)
                .isCloseTo(0.5, within(0.02));
        double[] loose = multipliers(DeadlineModel.LOOSE_90, 20_000);
        assertThat(loose).containsOnly(1, 2);
        assertThat(IntStream.range(0, loose.length).filter(i -> loose[i] == 2).count() / 20_000.0)
                .isCloseTo(0.9, within(0.01));
        assertThat(multipliers(DeadlineModel.JOCKEY_1X_2X, 1000)).containsOnly(1, 2);
    }

    @Test
    void ariaModelsAreUniformInTheirInterval() {
        double[] aria = multipliers(DeadlineModel.ARIA_1X_3X, 20_000);
        assertThat(java.util.Arrays.stream(aria).min().orElseThrow()).isGreaterThanOrEqualTo(1.0);
        assertThat(java.util.Arrays.stream(aria).max().orElseThrow()).isLessThanOrEqualTo(3.0 + 1e-5);
        assertThat(java.util.Arrays.stream(aria).average().orElseThrow()).isCloseTo(2.0, within(0.03));
        double[] aria2 = multipliers(DeadlineModel.ARIA_2X_4X, 1000);
        assertThat(java.util.Arrays.stream(aria2).min().orElseThrow()).isGreaterThanOrEqualTo(2.0);
        assertThat(java.util.Arrays.stream(aria2).max().orElseThrow()).isLessThanOrEqualTo(4.0 + 1e-5);
    }

    @Test
    void theSameSeedGivesTheSameDeadlinesAndAnotherSeedOthers() {
        var a = new DeadlineGenerator(DeadlineModel.ARIA_2X_4X, 7).assign(jobs(50), 10);
        var b = new DeadlineGenerator(DeadlineModel.ARIA_2X_4X, 7).assign(jobs(50), 10);
        var c = new DeadlineGenerator(DeadlineModel.ARIA_2X_4X, 8).assign(jobs(50), 10);
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        assertThat(new SplittableRandom(7).nextDouble()).isEqualTo(new SplittableRandom(7).nextDouble());
    }

    @Test
    void modelsAreFoundByName() {
        assertThat(DeadlineModel.named("90loose")).isSameAs(DeadlineModel.LOOSE_90);
        assertThat(DeadlineModel.named("aria1x3x")).isSameAs(DeadlineModel.ARIA_1X_3X);
        assertThatThrownBy(() -> DeadlineModel.named("Fixed3x")).hasMessageContaining("Fixed3x")
                .hasMessageContaining("Jockey1x2x");
    }
}
