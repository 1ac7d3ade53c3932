package io.fairledger.admission.rest;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.admission.AdmissionService;
import io.fairledger.admission.AdmissionViews;
import io.fairledger.admission.Applied;
import io.fairledger.admission.ClusterAdmission;
import io.fairledger.admission.DecisionEvent;
import io.fairledger.admission.LogEntry;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.workflow.FlowTimePlanner;
import io.fairledger.core.workflow.Workflow;
import io.fairledger.core.workflow.WorkflowDag;
import io.fairledger.core.workflow.WorkflowJob;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;
import io.fairledger.ingest.schema.EventDecoder;
import io.fairledger.security.Roles;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.TenancyService;

/**
 * What resource managers ask of admission control (docs/api.md, "Admissions and workflows"): submit a job and get the
 * decision, report its completion, follow its history; submit a workflow and get its job deadlines and plan.
 */
@Path("/api/v1/clusters/{cluster}")
@RolesAllowed({Roles.RESOURCE_MANAGER, Roles.ADMIN})
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AdmissionResource {

    private static final String ID = "[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}";
    private static final String ID_MESSAGE = "must be 1-200 letters, digits or . _ : @ -, starting with a letter or digit";

    @Inject
    AdmissionService admission;

    @Inject
    TenancyService tenancy;

    private final Clock clock = Clock.systemUTC();

    /** A deadline job: give exactly one of {@code deadlineSeconds} (after submission) or {@code deadlineAt}. */
    public record JobSubmission(
            @NotNull(message = "id is required") @Pattern(regexp = ID, message = "id " + ID_MESSAGE) String id,
            @Size(max = 1000, message = "tenant is at most 1000 characters") String tenant,
            @NotNull(message = "tasks is required") @Min(value = 1, message = "tasks must be >= 1") @Max(value = 10_000_000, message = "tasks must be <= 10000000") Integer tasks,
            @DecimalMin(value = "0.001", message = "deadlineSeconds must be at least 0.001 (1 ms)") @DecimalMax(value = "31536000", message = "deadlineSeconds must be at most one year (31536000)") Double deadlineSeconds,
            Instant deadlineAt,
            @DecimalMin(value = "0", message = "estimatedCpuSeconds must be >= 0") @DecimalMax(value = "1e15", message = "estimatedCpuSeconds must be <= 1e15") Double estimatedCpuSeconds) {
    }

    /** A running job's completion; {@code finishedAt} defaults to now. */
    public record CompletionReport(
            @NotNull(message = "compTimeCpuSeconds is required: the CPU-seconds the job used") @DecimalMin(value = "0", message = "compTimeCpuSeconds must be >= 0") @DecimalMax(value = "1e15", message = "compTimeCpuSeconds must be <= 1e15") Double compTimeCpuSeconds,
            Instant finishedAt,
            @Pattern(regexp = "SUCCEEDED|FAILED|KILLED", message = "outcome must be SUCCEEDED, FAILED or KILLED") String outcome) {
    }

    /** A decision now and the job as it stands. */
    public record JobResponse(AdmissionViews.JobView job, List<DecisionEvent> decisions) {
    }

    /** A workflow: a DAG of jobs with one deadline, relative to its submission. */
    public record WorkflowSubmission(
            @NotNull(message = "id is required") @Pattern(regexp = ID, message = "id " + ID_MESSAGE) String id,
            @Size(max = 1000, message = "tenant is at most 1000 characters") String tenant,
            @NotNull(message = "deadlineSeconds is required") @DecimalMin(value = "0.001", message = "deadlineSeconds must be > 0") @DecimalMax(value = "31536000", message = "deadlineSeconds must be at most one year (31536000)") Double deadlineSeconds,
            @DecimalMin(value = "0.001", message = "slotSeconds must be > 0") @DecimalMax(value = "86400", message = "slotSeconds must be at most 86400") Double slotSeconds,
            @DecimalMin(value = "0", message = "deadlineSlackSeconds must be >= 0") @DecimalMax(value = "86400", message = "deadlineSlackSeconds must be at most 86400") Double deadlineSlackSeconds,
            @NotEmpty(message = "jobs must list at least one job") @Size(max = 10_000, message = "jobs lists at most 10000 jobs") List<@Valid @NotNull(message = "a job must not be null") WorkflowJobSpec> jobs) {
    }

    /** One job of a workflow. */
    public record WorkflowJobSpec(
            @NotNull(message = "id is required") @Pattern(regexp = ID, message = "id " + ID_MESSAGE) String id,
            @NotNull(message = "tasks is required") @Min(value = 1, message = "tasks must be >= 1") @Max(value = 10_000_000, message = "tasks must be <= 10000000") Integer tasks,
            @NotNull(message = "taskRuntimeSeconds is required") @DecimalMin(value = "0.001", message = "taskRuntimeSeconds must be > 0") @DecimalMax(value = "31536000", message = "taskRuntimeSeconds must be at most one year") Double taskRuntimeSeconds,
            @Min(value = 1, message = "taskCpus must be >= 1") @Max(value = 10_000, message = "taskCpus must be <= 10000") Integer taskCpus,
            List<String> dependsOn) {
    }

    @POST
    @Path("/jobs")
    @Operation(summary = "Submit a deadline job and get the admission decision now (admit with CPUs, queue, drop with the reason)")
    @APIResponse(responseCode = "201", description = "The job and the decisions of this pass (its own, and any other job's it caused)")
    @APIResponse(responseCode = "400", description = "Invalid body; problem+json names each field")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not a resource manager or admin")
    @APIResponse(responseCode = "404", description = "Unknown cluster")
    @APIResponse(responseCode = "409", description = "Job id already submitted, or the cluster has no ledger settings")
    @APIResponse(responseCode = "422", description = "Not exactly one deadline, a deadline already past, or an invalid tenant path")
    public Response submit(@PathParam("cluster") String cluster,
            @Valid @NotNull(message = "a JSON body is required") JobSubmission body) {
        checkTenant(tenancy.cluster(cluster), body.tenant());
        Instant now = clock.instant();
        long deadlineMillis;
        if ((body.deadlineSeconds() == null) == (body.deadlineAt() == null)) {
            throw new Invalid("give exactly one of deadlineSeconds (relative to submission) or "
                    + "deadlineAt (an instant)");
        } else if (body.deadlineSeconds() != null) {
            deadlineMillis = (long) Math.ceil(body.deadlineSeconds() * 1000);
        } else {
            deadlineMillis = Duration.between(now, body.deadlineAt()).toMillis();
            if (deadlineMillis < 1) {
                throw new Invalid("deadlineAt " + body.deadlineAt() + " is not after now (" + now
                        + ")");
            }
        }
        Applied applied = admission.append(cluster, "http-job:" + body.id(), now, LogEntry.HTTP_JOB,
                new LogEntry.JobSubmission(body.id(), body.tenant() == null ? "" : body.tenant(), body.tasks(),
                        deadlineMillis, body.estimatedCpuSeconds()));
        if (applied.refusal() != null) {
            throw applied.refusal().exception();
        }
        AdmissionViews.JobView job = admission.read(cluster, s -> s.job(body.id()));
        return Response.created(URI.create("/api/v1/clusters/" + cluster + "/jobs/" + body.id()))
                .entity(new JobResponse(job, applied.decisions())).build();
    }

    @GET
    @Path("/jobs/{id}")
    @Operation(summary = "A job's current state and the history of its decisions")
    @APIResponse(responseCode = "200", description = "The job, with every decision and its explanation")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not a resource manager or admin")
    @APIResponse(responseCode = "404", description = "No such job on this cluster")
    public AdmissionViews.JobView job(@PathParam("cluster") String cluster, @PathParam("id") String id) {
        AdmissionViews.JobView job = admission.read(cluster, s -> s.job(id));
        if (job == null) {
            throw new NotFound("no job '" + id + "' on cluster '" + cluster + "'");
        }
        return job;
    }

    @POST
    @Path("/jobs/{id}/completion")
    @Operation(summary = "Report that a running job finished; its CPUs are freed and the queue gets a pass")
    @APIResponse(responseCode = "200", description = "The job, and the decisions the freed CPUs caused")
    @APIResponse(responseCode = "400", description = "Invalid body; problem+json names each field")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not a resource manager or admin")
    @APIResponse(responseCode = "404", description = "No such job on this cluster")
    @APIResponse(responseCode = "409", description = "The job is not running (queued, dropped, killed, already completed)")
    @APIResponse(responseCode = "422", description = "finishedAt lies in the future")
    public JobResponse complete(@PathParam("cluster") String cluster, @PathParam("id") String id,
            @Valid @NotNull(message = "a JSON body is required") CompletionReport body) {
        Instant now = clock.instant();
        Instant finished = body.finishedAt() == null ? now : body.finishedAt();
        if (finished.isAfter(now.plus(EventDecoder.DEFAULT_MAX_FUTURE_SKEW))) {
            throw new Invalid("finishedAt " + finished + " lies in the future (now " + now + ")");
        }
        AdmissionViews.JobView before = job(cluster, id);
        if (before.status() != AdmissionViews.Status.RUNNING) {
            throw new Conflict("job '" + id + "' is " + before.status().name().toLowerCase()
                    + ", not running");
        }
        Applied applied = admission.append(cluster, "http-completion:" + id, finished,
                LogEntry.HTTP_COMPLETION, new LogEntry.Completion(id, body.compTimeCpuSeconds(), body.outcome()));
        if (applied.refusal() != null) {
            throw applied.refusal().exception();
        }
        return new JobResponse(admission.read(cluster, s -> s.job(id)), applied.decisions());
    }

    @POST
    @Path("/workflows")
    @Operation(summary = "Submit a workflow (DAG + deadline) and get its job deadlines (FlowTime) and the slot plan")
    @APIResponse(responseCode = "201", description = "Job windows, CPUs per slot for each job, and the CPUs each slot has left")
    @APIResponse(responseCode = "400", description = "Invalid body; problem+json names each field")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not a resource manager or admin")
    @APIResponse(responseCode = "404", description = "Unknown cluster")
    @APIResponse(responseCode = "409", description = "Workflow id already submitted, or the cluster has no ledger settings")
    @APIResponse(responseCode = "422", description = "A dependency cycle (named), a duplicate or unknown job id, or too many slots")
    public Response submitWorkflow(@PathParam("cluster") String cluster,
            @Valid @NotNull(message = "a JSON body is required") WorkflowSubmission body) {
        checkTenant(tenancy.cluster(cluster), body.tenant());
        double slot = body.slotSeconds() == null ? FlowTimePlanner.DEFAULT_SLOT_SECONDS : body.slotSeconds();
        double slack = body.deadlineSlackSeconds() == null
                ? FlowTimePlanner.DEFAULT_DEADLINE_SLACK_SECONDS
                : body.deadlineSlackSeconds();
        List<LogEntry.WorkflowSubmission.Job> jobs = new ArrayList<>();
        List<WorkflowJob> coreJobs = new ArrayList<>();
        for (WorkflowJobSpec j : body.jobs()) {
            List<String> deps = j.dependsOn() == null ? List.of() : j.dependsOn();
            int cpus = j.taskCpus() == null ? 1 : j.taskCpus();
            jobs.add(new LogEntry.WorkflowSubmission.Job(j.id(), j.tasks(), j.taskRuntimeSeconds(), cpus, deps));
            coreJobs.add(new WorkflowJob(j.id(), j.tasks(), j.taskRuntimeSeconds(), cpus, deps));
        }
        if (Math.ceil(body.deadlineSeconds() / slot) > ClusterAdmission.MAX_SLOTS) {
            throw new Invalid("deadlineSeconds / slotSeconds is more than "
                    + ClusterAdmission.MAX_SLOTS + " slots: use longer slots");
        }
        try {
            new WorkflowDag(new Workflow(body.id(), coreJobs, 0, body.deadlineSeconds()));
        } catch (IllegalArgumentException e) {
            throw new Invalid(e.getMessage());
        }
        Applied applied = admission.append(cluster, "http-workflow:" + body.id(), clock.instant(),
                LogEntry.HTTP_WORKFLOW, new LogEntry.WorkflowSubmission(body.id(),
                        body.tenant() == null ? "" : body.tenant(), body.deadlineSeconds(), slot, slack, jobs));
        if (applied.refusal() != null) {
            throw applied.refusal().exception();
        }
        AdmissionViews.WorkflowView view = admission.read(cluster, s -> s.workflow(body.id()));
        return Response.created(URI.create("/api/v1/clusters/" + cluster + "/workflows/" + body.id())).entity(view)
                .build();
    }

    @GET
    @Path("/workflows/{id}")
    @Operation(summary = "A workflow's job deadlines and the plan made at its submission")
    @APIResponse(responseCode = "200", description = "The workflow")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not a resource manager or admin")
    @APIResponse(responseCode = "404", description = "No such workflow on this cluster")
    public AdmissionViews.WorkflowView workflow(@PathParam("cluster") String cluster, @PathParam("id") String id) {
        AdmissionViews.WorkflowView view = admission.read(cluster, s -> s.workflow(id));
        if (view == null) {
            throw new NotFound("no workflow '" + id + "' on cluster '" + cluster + "'");
        }
        return view;
    }

    private static void checkTenant(RegisteredCluster cluster, String tenant) {
        if (tenant == null || tenant.isEmpty()) {
            return;
        }
        String problem = TenantPath.problem(cluster.resourceManager().pathSyntax(), tenant);
        if (problem != null) {
            throw new Invalid(problem);
        }
    }
}
