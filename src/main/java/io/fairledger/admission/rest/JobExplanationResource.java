package io.fairledger.admission.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.admission.AdmissionService;
import io.fairledger.admission.AdmissionViews;
import io.fairledger.errors.NotFound;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;

/**
 * Why a job got its decisions, for the tenant that owns it (docs/api.md, "Admissions and workflows"). A tenant sees
 * only jobs of its own subtree ({@link TenantScope}); any other job, like a job that does not exist, is a 404, so a
 * tenant cannot learn which job ids other tenants use. Resource managers and admins see every job.
 */
@Path("/api/v1/clusters/{cluster}/jobs/{id}/explanation")
@Produces(MediaType.APPLICATION_JSON)
public class JobExplanationResource {

    @Inject
    AdmissionService admission;

    @Inject
    SecurityIdentity identity;

    /** A job's decisions with the numbers that produced each. */
    public record JobExplanation(String cluster, String jobId, String tenant, AdmissionViews.Status status,
            int cpus, List<AdmissionViews.Change> decisions) {
    }

    @GET
    @RolesAllowed({Roles.TENANT, Roles.RESOURCE_MANAGER, Roles.ADMIN})
    @Operation(summary = "Explain a job's admission decisions: fraction, estimate, queue-time scaling, TTD, free CPUs, priority")
    @APIResponse(responseCode = "200", description = "Each decision of the job with the numbers of its pass")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "No tenant, resource-manager or admin role")
    @APIResponse(responseCode = "404", description = "No such job, or a job of a tenant the caller may not see")
    public JobExplanation explain(@PathParam("cluster") String cluster, @PathParam("id") String id) {
        AdmissionViews.JobView job = admission.read(cluster, s -> s.job(id));
        boolean all = identity.hasRole(Roles.ADMIN) || identity.hasRole(Roles.RESOURCE_MANAGER);
        if (job == null || !(all || TenantScope.of(identity).maySee(cluster, job.tenant()))) {
            throw new NotFound("no job '" + id + "' of your tenants on cluster '" + cluster + "'");
        }
        return new JobExplanation(cluster, job.id(), job.tenant(), job.status(), job.cpus(), job.history());
    }
}
