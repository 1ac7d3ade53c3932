package io.fairledger.portal;

import io.fairledger.admission.AdmissionService;
import io.fairledger.admission.PolicySettings;

/** An admission policy in one sentence, for the admin's cluster page. */
final class PolicyWords {

    private PolicyWords() {
    }

    static String of(AdmissionService.PolicyView view) {
        PolicySettings s = view.settings();
        StringBuilder text = new StringBuilder("Policy ").append(s.policy());
        if (s.smoothing() != null) {
            text.append(", ").append(s.smoothing()).append(" smoothing");
        }
        if (s.alpha() != null) {
            text.append(" (alpha ").append(Format.number(s.alpha())).append(')');
        }
        if (s.priority() != null) {
            text.append(", priority ").append(s.priority());
        }
        if (s.bootstrapJobs() != null) {
            text.append(", ").append(s.bootstrapJobs()).append(" bootstrap jobs");
        }
        text.append(s.killAboveTasks() == null
                ? ", never kills"
                : ", kills jobs above " + s.killAboveTasks() + " tasks");
        text.append("; capacity ").append(view.capacityCpus()).append(" CPUs; in force since ")
                .append(view.effectiveFrom() == null ? "its first use" : Format.instant(view.effectiveFrom()))
                .append('.');
        return text.toString();
    }
}
