package io.fairledger.admission;

import java.time.Instant;
import java.util.List;

import io.fairledger.core.admission.AdmissionPolicy;
import io.fairledger.core.admission.JobRequest;
import io.fairledger.core.admission.Justice;
import io.fairledger.core.admission.Pythia;

/** What the admission API shows of a cluster's admission state: jobs with their histories, workflows with their plans. */
public final class AdmissionViews {

    private AdmissionViews() {
    }

    /** Where a job stands. */
    public enum Status {
        QUEUED, RUNNING, COMPLETED, DROPPED, KILLED,
        /** Submitted without a deadline (Kafka {@code JobSubmitted} with none): not admission-controlled. */
        UNMANAGED
    }

    /**
     * The numbers behind a decision, taken at its pass. {@code fraction} is Justice's corrected CPU fraction
     * ({@link Justice#allocationFraction()}, 1 during bootstrap) or Pythia's CPU fraction; {@code requiredCpus} is
     * Justice's {@code reqCpus} ({@link Justice#requiredCpus}); {@code queueTimeScaling} is {@code deadline / TTD};
     * {@code priority} is {@code requiredCpus / TTD} in CPUs per second, the queue order (smallest first);
     * {@code freeCpus} were free before the pass. Null where the policy has no such number or the TTD is over.
     */
    public record Explanation(String policy, int capacity, int maxCpus, long deadlineMillis, long ttdMillis,
            Double queueTimeScaling, Double fraction, Long requiredCpus, Double priority, int freeCpus,
            long completionsLearned) {

        /** The numbers of {@code policy} for job {@code r} at {@code at}, with {@code freeCpus} free before the pass. */
        static Explanation of(AdmissionPolicy policy, int capacity, JobRequest r, long at, int freeCpus,
                long completionsLearned) {
            long ttd = r.deadlineAbsMillis() - at;
            Double scaling = ttd > 0 ? (double) r.deadlineMillis() / ttd : null;
            Double fraction = null;
            Long required = null;
            Double priority = null;
            if (policy instanceof Justice justice) {
                fraction = justice.allocationFraction();
                if (ttd > 0) {
                    required = justice.requiredCpus(r, at);
                    priority = required / (ttd / 1000.0);
                }
            } else if (policy instanceof Pythia pythia) {
                fraction = pythia.cpuFraction();
            }
            return new Explanation(policy.name(), capacity, r.maxCpus(capacity), r.deadlineMillis(), ttd, scaling,
                    fraction, required, priority, freeCpus, completionsLearned);
        }
    }

    /** One step of a job's history. */
    public record Change(long position, Instant at, String outcome, Integer cpus, String reason,
            Explanation explanation) {
    }

    /** A job as the API shows it. */
    public record JobView(String cluster, String id, String tenant, int tasks, Instant submittedAt,
            Instant deadlineAt, Double estimatedCpuSeconds, Status status, int cpus, List<Change> history) {
    }

    /** A workflow's decomposition and plan, as computed when it was applied. */
    public record WorkflowView(String cluster, String id, String tenant, Instant submittedAt, Instant deadlineAt,
            String status, String reason, List<JobDeadline> jobs, Plan plan) {
    }

    /** A workflow job's window from the decomposition. */
    public record JobDeadline(String jobId, Instant releaseAt, Instant deadlineAt, long[] cpusPerSlot) {
    }

    /**
     * The slot plan of every workflow active at the submission: {@code method} is {@code lex-min-max} or {@code edf}
     * (the fallback), {@code leftover[k]} the CPUs slot {@code k} has left for other jobs.
     */
    public record Plan(String method, Instant start, double slotSeconds, int capacity, long[] leftover,
            List<String> lateJobs) {
    }
}
