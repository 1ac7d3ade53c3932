package io.fairledger.core.admission;

import java.util.Objects;

/**
 * Justice's settings (docs/domain.md section 9); {@link #defaults()} gives the documented defaults.
 *
 * @param smoothing
 *            how estimation errors are averaged; default {@link ErrorSmoothing.EqualWeights}
 * @param killAboveTasks
 *            running jobs past their deadline are killed when their requested tasks exceed this; default
 *            {@link #NEVER_KILL}
 * @param priority
 *            queue order; default {@link PriorityPolicy#REQ_CPUS_PER_TTD}
 * @param bootstrapCompletions
 *            completed jobs needed before estimates replace {@code maxCPUs}; default 2 ("until more than one job has
 *            completed", Dimopoulos's dissertation (2018) Algorithm 6 line 23)
 * @param indexed
 *            true for the fast {@link IndexedAdmissionQueue}, false for the pseudocode's rescan; default true
 */
public record JusticeConfig(ErrorSmoothing smoothing, int killAboveTasks, PriorityPolicy priority,
        int bootstrapCompletions, boolean indexed) {

    /** Kill threshold that kills nobody. */
    public static final int NEVER_KILL = Integer.MAX_VALUE;

    /** Default number of completions that ends the bootstrap. */
    public static final int DEFAULT_BOOTSTRAP_COMPLETIONS = 2;

    public JusticeConfig {
        Objects.requireNonNull(smoothing, "smoothing");
        Objects.requireNonNull(priority, "priority");
        if (killAboveTasks < 0) {
            throw new IllegalArgumentException("kill threshold must be >= 0 tasks, got " + killAboveTasks);
        }
        if (bootstrapCompletions < 1) {
            throw new IllegalArgumentException(
                    "bootstrap needs at least 1 completed job, got " + bootstrapCompletions);
        }
    }

    public static JusticeConfig defaults() {
        return new JusticeConfig(new ErrorSmoothing.EqualWeights(), NEVER_KILL, PriorityPolicy.REQ_CPUS_PER_TTD,
                DEFAULT_BOOTSTRAP_COMPLETIONS, true);
    }

    public JusticeConfig withSmoothing(ErrorSmoothing value) {
        return new JusticeConfig(value, killAboveTasks, priority, bootstrapCompletions, indexed);
    }

    public JusticeConfig withKillAboveTasks(int value) {
        return new JusticeConfig(smoothing, value, priority, bootstrapCompletions, indexed);
    }

    public JusticeConfig withPriority(PriorityPolicy value) {
        return new JusticeConfig(smoothing, killAboveTasks, value, bootstrapCompletions, indexed);
    }

    public JusticeConfig withBootstrapCompletions(int value) {
        return new JusticeConfig(smoothing, killAboveTasks, priority, value, indexed);
    }

    public JusticeConfig withIndexed(boolean value) {
        return new JusticeConfig(smoothing, killAboveTasks, priority, bootstrapCompletions, value);
    }
}
