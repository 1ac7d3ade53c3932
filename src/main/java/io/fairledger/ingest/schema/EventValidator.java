package io.fairledger.ingest.schema;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.PlainText;
import io.fairledger.tenancy.SettingsLimits;

/**
 * Checks a decoded event beyond what the schema says: identifiers present and plain text ({@link PlainText}: no
 * control characters, unpaired surrogates or layout overrides; a tenant path within the limits of a tenant in the ledger
 * settings and without white space at its ends),
 * resources neither negative nor beyond {@link ResourceLimits}, event time not further in the future than the allowed
 * skew, and each type's own rules.
 */
final class EventValidator {

    /** Earlier event times are taken for a unit mistake (epoch seconds sent as milliseconds). */
    static final Instant EARLIEST_EVENT_TIME = Instant.parse("2000-01-01T00:00:00Z");

    private final Clock clock;
    private final Duration maxFutureSkew;

    EventValidator(Clock clock, Duration maxFutureSkew) {
        this.clock = clock;
        this.maxFutureSkew = maxFutureSkew;
    }

    void validate(FairledgerEvent event) throws RejectedException {
        id(event.eventId(), "eventId");
        id(event.cluster(), "cluster");
        eventTime(event.eventTime());
        if (event instanceof YarnContainerEvent e) {
            yarnContainer(e);
        } else if (event instanceof MesosTaskStatus e) {
            mesosTask(e);
        } else if (event instanceof JobSubmitted e) {
            jobSubmitted(e);
        } else if (event instanceof JobFinished e) {
            jobFinished(e);
        } else if (event instanceof DemandReported e) {
            demand(e);
        } else if (event instanceof CapacityChanged e) {
            capacity(e);
        } else if (event instanceof WorkflowSubmitted e) {
            workflow(e);
        }
    }

    private void eventTime(Instant eventTime) throws RejectedException {
        Instant latest = clock.instant().plus(maxFutureSkew);
        if (eventTime.isAfter(latest)) {
            throw new RejectedException(Rejection.Reason.FUTURE_EVENT_TIME, "eventTime",
                    eventTime + " is " + Duration.between(clock.instant(), eventTime) + " ahead of the server clock ("
                            + clock.instant() + "); at most " + maxFutureSkew + " of skew is allowed");
        }
        if (eventTime.isBefore(EARLIEST_EVENT_TIME)) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "eventTime", eventTime + " is before "
                    + EARLIEST_EVENT_TIME + " (epoch seconds where milliseconds are expected?)");
        }
    }

    private static void yarnContainer(YarnContainerEvent e) throws RejectedException {
        id(e.applicationId(), "applicationId");
        id(e.attemptId(), "attemptId");
        id(e.containerId(), "containerId");
        tenant(e.queue(), "queue");
        id(e.user(), "user");
        optionalId(e.node(), "node");
        memory(e.allocatedMemoryMb(), "allocatedMemoryMb");
        cpus(e.allocatedVcores(), "allocatedVcores");
        gpus(e.allocatedGpus(), "allocatedGpus");
        if (e.state() == YarnContainerState.UNKNOWN) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "state",
                    "UNKNOWN: a state from a newer schema version that this server cannot account for");
        }
        notBefore(e.startedTime(), "startedTime", e.createdTime(), "createdTime");
        notBefore(e.finishedTime(), "finishedTime", e.startedTime(), "startedTime");
        notBefore(e.finishedTime(), "finishedTime", e.createdTime(), "createdTime");
    }

    private static void mesosTask(MesosTaskStatus e) throws RejectedException {
        id(e.frameworkId(), "frameworkId");
        id(e.taskId(), "taskId");
        if (e.role() != null && e.role().isBlank()) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "role", "blank; omit it or give null");
        }
        if (e.role() != null) {
            tenant(e.role(), "role");
        }
        optionalId(e.statusUuid(), "statusUuid");
        optionalId(e.agentId(), "agentId");
        optionalId(e.executorId(), "executorId");
        if (e.cpus() != null) {
            cpus(e.cpus(), "cpus");
            whole(e.cpus() * 1000, "cpus", "thousandths of a CPU: Mesos keeps scalars to three decimals", e.cpus());
        }
        if (e.memMb() != null) {
            amount(e.memMb(), ResourceLimits.MAX_MEMORY_MB, "memMb", Rejection.Reason.INVALID_RESOURCES);
            if (MemoryUnits.fromDecimalMb(e.memMb()) < 0) {
                throw new RejectedException(Rejection.Reason.INVALID_RESOURCES, "memMb", e.memMb()
                        + " is not a whole number of thousandths of a MB: Mesos keeps scalars to three decimals");
            }
        }
        if (e.gpus() != null) {
            gpus(e.gpus(), "gpus");
            whole(e.gpus(), "gpus", "GPUs: Mesos allocates whole GPUs", e.gpus());
        }
    }

    private static void jobSubmitted(JobSubmitted e) throws RejectedException {
        id(e.jobId(), "jobId");
        tenant(e.tenant(), "tenant");
        optionalId(e.workflowId(), "workflowId");
        requestedTasks(e.requestedTasks(), "requestedTasks");
        if (e.relativeDeadlineSeconds() != null) {
            deadline(e.relativeDeadlineSeconds(), "relativeDeadlineSeconds");
        }
    }

    private static void jobFinished(JobFinished e) throws RejectedException {
        id(e.jobId(), "jobId");
        tenant(e.tenant(), "tenant");
        amount(e.compTimeCpuSeconds(), ResourceLimits.MAX_CPU_SECONDS, "compTimeCpuSeconds",
                Rejection.Reason.INVALID_RESOURCES);
        cpus(e.allocatedCpus(), "allocatedCpus");
    }

    private static void demand(DemandReported e) throws RejectedException {
        tenant(e.tenant(), "tenant");
        optionalId(e.applicationId(), "applicationId");
        cpus(e.pendingCpus(), "pendingCpus");
        memory(e.pendingMemoryMb(), "pendingMemoryMb");
        gpus(e.pendingGpus(), "pendingGpus");
        if (e.pendingTasks() != null) {
            amount(e.pendingTasks(), ResourceLimits.MAX_TASKS, "pendingTasks", Rejection.Reason.INVALID_RESOURCES);
        }
    }

    private static void capacity(CapacityChanged e) throws RejectedException {
        if (e.change() == CapacityChange.UNKNOWN) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "change",
                    "UNKNOWN: a kind of change from a newer schema version that this server cannot apply");
        }
        if (e.change() == CapacityChange.TOTALS) {
            optionalId(e.node(), "node");
        } else {
            if (e.node() == null || e.node().isBlank()) {
                throw new RejectedException(Rejection.Reason.MISSING_FIELD, "node",
                        "required when change is " + e.change());
            }
            id(e.node(), "node");
        }
        cpus(e.cpus(), "cpus");
        memory(e.memoryMb(), "memoryMb");
        gpus(e.gpus(), "gpus");
    }

    private static void workflow(WorkflowSubmitted e) throws RejectedException {
        id(e.workflowId(), "workflowId");
        tenant(e.tenant(), "tenant");
        deadline(e.relativeDeadlineSeconds(), "relativeDeadlineSeconds");
        List<WorkflowSubmitted.WorkflowJob> jobs = e.jobs();
        if (jobs.isEmpty()) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "jobs", "a workflow needs at least one job");
        }
        if (jobs.size() > ResourceLimits.MAX_WORKFLOW_JOBS) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "jobs",
                    jobs.size() + " jobs, more than the limit of " + ResourceLimits.MAX_WORKFLOW_JOBS);
        }
        Map<String, WorkflowSubmitted.WorkflowJob> byId = new HashMap<>();
        for (int i = 0; i < jobs.size(); i++) {
            WorkflowSubmitted.WorkflowJob job = jobs.get(i);
            String path = "jobs[" + i + "]";
            id(job.jobId(), path + ".jobId");
            requestedTasks(job.requestedTasks(), path + ".requestedTasks");
            if (job.estimatedCpuSeconds() != null) {
                amount(job.estimatedCpuSeconds(), ResourceLimits.MAX_CPU_SECONDS, path + ".estimatedCpuSeconds",
                        Rejection.Reason.INVALID_RESOURCES);
            }
            if (byId.put(job.jobId(), job) != null) {
                throw new RejectedException(Rejection.Reason.INVALID_FIELD, path + ".jobId",
                        "duplicate job id \"" + job.jobId() + "\"");
            }
        }
        for (int i = 0; i < jobs.size(); i++) {
            List<String> dependsOn = jobs.get(i).dependsOn();
            for (int d = 0; d < dependsOn.size(); d++) {
                if (!byId.containsKey(dependsOn.get(d))) {
                    throw new RejectedException(Rejection.Reason.INVALID_FIELD, "jobs[" + i + "].dependsOn[" + d + "]",
                            "\"" + dependsOn.get(d) + "\" is not a job of this workflow");
                }
            }
        }
        acyclic(jobs);
    }

    /** Kahn's algorithm: whatever cannot be ordered lies on or behind a cycle. */
    private static void acyclic(List<WorkflowSubmitted.WorkflowJob> jobs) throws RejectedException {
        Map<String, Integer> unmetDependencies = new HashMap<>();
        Map<String, List<String>> dependents = new HashMap<>();
        for (WorkflowSubmitted.WorkflowJob job : jobs) {
            Set<String> distinct = new HashSet<>(job.dependsOn());
            unmetDependencies.put(job.jobId(), distinct.size());
            for (String dependency : distinct) {
                dependents.computeIfAbsent(dependency, k -> new ArrayList<>()).add(job.jobId());
            }
        }
        Deque<String> ready = new ArrayDeque<>();
        unmetDependencies.forEach((job, unmet) -> {
            if (unmet == 0) {
                ready.add(job);
            }
        });
        int ordered = 0;
        while (!ready.isEmpty()) {
            String job = ready.poll();
            ordered++;
            for (String dependent : dependents.getOrDefault(job, List.of())) {
                if (unmetDependencies.merge(dependent, -1, Integer::sum) == 0) {
                    ready.add(dependent);
                }
            }
        }
        if (ordered < jobs.size()) {
            List<String> onCycle = jobs.stream().map(WorkflowSubmitted.WorkflowJob::jobId)
                    .filter(id -> unmetDependencies.get(id) > 0).sorted().limit(10).toList();
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, "jobs",
                    "dependencies form a cycle; jobs on or behind it: " + onCycle);
        }
    }

    private static void id(String value, String field) throws RejectedException {
        if (value == null || value.isBlank()) {
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, field, "required and must not be blank");
        }
        String problem = Identifiers.problem(value);
        if (problem != null) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, field, problem);
        }
    }

    /**
     * A tenant path, held to the limits of a tenant in the ledger settings ({@link SettingsLimits#pathProblem}: length,
     * depth, plain text), as the ledger creates the queue or role an event names; and its ends not blank, as the parser
     * would strip them and merge two tenants.
     */
    private static void tenant(String value, String field) throws RejectedException {
        if (value == null || value.isBlank()) {
            throw new RejectedException(Rejection.Reason.MISSING_FIELD, field, "required and must not be blank");
        }
        String problem = SettingsLimits.pathProblem(value);
        if (problem != null) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, field, problem);
        }
        if (!value.equals(value.strip())) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, field,
                    "starts or ends with white space; a tenant path is taken as written");
        }
    }

    private static void optionalId(String value, String field) throws RejectedException {
        if (value != null) {
            if (value.isBlank()) {
                throw new RejectedException(Rejection.Reason.INVALID_FIELD, field, "blank; omit it or give null");
            }
            id(value, field);
        }
    }

    /**
     * Refuses a fraction of {@code unit} rather than rounding it away ({@code scaled} is the {@code amount} as sent, in
     * units; it is already finite and in range). A scaled amount within a millionth of a whole number is whole: binary
     * doubles cannot hold most decimals exactly ({@code 0.1 * 1000} is {@code 100.00000000000001}).
     */
    private static void whole(double scaled, String field, String unit, double amount) throws RejectedException {
        if (Math.abs(scaled - Math.rint(scaled)) > 1e-6) {
            throw new RejectedException(Rejection.Reason.INVALID_RESOURCES, field,
                    amount + " is not a whole number of " + unit);
        }
    }

    private static void memory(double mb, String field) throws RejectedException {
        amount(mb, ResourceLimits.MAX_MEMORY_MB, field, Rejection.Reason.INVALID_RESOURCES);
    }

    private static void cpus(double cpus, String field) throws RejectedException {
        amount(cpus, ResourceLimits.MAX_CPUS, field, Rejection.Reason.INVALID_RESOURCES);
    }

    private static void gpus(double gpus, String field) throws RejectedException {
        amount(gpus, ResourceLimits.MAX_GPUS, field, Rejection.Reason.INVALID_RESOURCES);
    }

    private static void requestedTasks(int tasks, String field) throws RejectedException {
        if (tasks < 1) {
            throw new RejectedException(Rejection.Reason.INVALID_RESOURCES, field, tasks + "; at least 1 task");
        }
        amount(tasks, ResourceLimits.MAX_TASKS, field, Rejection.Reason.INVALID_RESOURCES);
    }

    private static void deadline(long seconds, String field) throws RejectedException {
        if (seconds <= 0) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, field, seconds + "; must be positive");
        }
        if (seconds > ResourceLimits.MAX_DEADLINE_SECONDS) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, field,
                    seconds + " seconds is more than the limit of ten years");
        }
    }

    private static void amount(double value, double limit, String field, Rejection.Reason reason)
            throws RejectedException {
        if (!Double.isFinite(value)) {
            throw new RejectedException(reason, field, value + " is not a finite number");
        }
        if (value < 0) {
            throw new RejectedException(reason, field, number(value) + " is negative");
        }
        if (value > limit) {
            throw new RejectedException(reason, field, number(value) + " is beyond the limit of " + number(limit));
        }
    }

    private static String number(double value) {
        return value == Math.rint(value) && Math.abs(value) < 1e18
                ? Long.toString((long) value)
                : Double.toString(value);
    }

    private static void notBefore(Instant later, String laterField, Instant earlier, String earlierField)
            throws RejectedException {
        if (later != null && earlier != null && later.isBefore(earlier)) {
            throw new RejectedException(Rejection.Reason.INVALID_FIELD, laterField,
                    later + " is before " + earlierField + " " + earlier);
        }
    }
}
