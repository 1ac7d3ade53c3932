package io.fairledger.admission;

import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;

import com.fasterxml.jackson.annotation.JsonInclude;

import io.fairledger.core.admission.AdmissionPolicies;
import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.ErrorSmoothing;
import io.fairledger.core.admission.JusticeConfig;
import io.fairledger.core.admission.PriorityPolicy;

/**
 * A cluster's admission policy and its parameters (docs/admission.md, "Serving admissions"), as the admin API takes it
 * and the admission log stores it. Absent parameters take {@link JusticeConfig#defaults()}; they apply to Justice and
 * Pythia, {@code priority} also to Oracle, and the fair-share policies take none.
 *
 * @param policy
 *            {@code justice} (default), {@code pythia}, {@code oracle}, {@code baseline-fs} or {@code reactive-fs}
 * @param smoothing
 *            {@code equal} (default) or {@code exponential}
 * @param alpha
 *            exponential smoothing factor in (0, 1], default 0.5; only with {@code exponential}
 * @param killAboveTasks
 *            running jobs past their deadline with more tasks than this are killed; null (default): never kill
 * @param priority
 *            {@code req-per-ttd} (default) or {@code shortest-ttd}
 * @param bootstrapJobs
 *            completed jobs before estimates replace maxCPUs, default 2
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PolicySettings(
        @NotNull(message = "policy is required: justice, pythia, oracle, baseline-fs or reactive-fs") @Pattern(regexp = "justice|pythia|oracle|baseline-fs|reactive-fs", message = "policy must be one of justice, pythia, oracle, baseline-fs, reactive-fs") String policy,
        @Pattern(regexp = "equal|exponential", message = "smoothing must be equal or exponential") String smoothing,
        @DecimalMin(value = "0", inclusive = false, message = "alpha must be in (0, 1]") @DecimalMax(value = "1", message = "alpha must be in (0, 1]") Double alpha,
        @Min(value = 0, message = "killAboveTasks must be >= 0 (omit it to never kill)") Integer killAboveTasks,
        @Pattern(regexp = "req-per-ttd|shortest-ttd", message = "priority must be req-per-ttd or shortest-ttd") String priority,
        @Min(value = 1, message = "bootstrapJobs must be >= 1") @Max(value = 1_000_000, message = "bootstrapJobs must be <= 1000000") Integer bootstrapJobs) {

    /** Justice with every parameter at its default. */
    public static PolicySettings defaults() {
        return new PolicySettings("justice", null, null, null, null, null).normalised();
    }

    /** The same settings with every default written out, so what is stored and shown is explicit. */
    public PolicySettings normalised() {
        String smooth = smoothing == null ? "equal" : smoothing;
        Double a = smooth.equals("exponential") ? (alpha == null ? 0.5 : alpha) : null;
        return new PolicySettings(policy == null ? "justice" : policy, smooth, a, killAboveTasks,
                priority == null ? PriorityPolicy.REQ_CPUS_PER_TTD.name() : priority,
                bootstrapJobs == null ? JusticeConfig.DEFAULT_BOOTSTRAP_COMPLETIONS : bootstrapJobs);
    }

    /** The problem with these settings beyond single fields, or null. */
    public String problem() {
        if (alpha != null && !"exponential".equals(smoothing)) {
            return "alpha is only used with \"smoothing\":\"exponential\"";
        }
        return null;
    }

    /** Justice's configuration for these settings (the fast indexed queue). */
    public JusticeConfig justiceConfig() {
        PolicySettings n = normalised();
        return JusticeConfig.defaults()
                .withSmoothing(ErrorSmoothing.named(n.smoothing, n.alpha == null ? Double.NaN : n.alpha))
                .withKillAboveTasks(n.killAboveTasks == null ? JusticeConfig.NEVER_KILL : n.killAboveTasks)
                .withPriority(PriorityPolicy.named(n.priority)).withBootstrapCompletions(n.bootstrapJobs);
    }

    /** A fresh policy of {@code capacity} CPUs. */
    public AdmissionPolicy build(int capacity) {
        return AdmissionPolicies.create(normalised().policy, capacity, justiceConfig());
    }
}
