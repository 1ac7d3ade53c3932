package io.fairledger.admission.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.admission.AdmissionService;
import io.fairledger.admission.PolicySettings;
import io.fairledger.errors.Invalid;
import io.fairledger.security.Roles;
import io.fairledger.tenancy.TenancyService;

/** A cluster's admission policy and its parameters (docs/admission.md, "Serving admissions"). */
@Path("/api/v1/admin/clusters/{cluster}/admission-policy")
@RolesAllowed(Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class AdmissionPolicyResource {

    @Inject
    AdmissionService admission;

    @Inject
    TenancyService tenancy;

    @GET
    @Operation(summary = "The cluster's admission policy, its parameters, capacity and since when it is in force")
    @APIResponse(responseCode = "200", description = "The policy (the default Justice, effectiveFrom null, before any use)")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not an admin")
    @APIResponse(responseCode = "404", description = "Unknown cluster")
    @APIResponse(responseCode = "409", description = "The cluster has no ledger settings (no capacity) yet")
    public AdmissionService.PolicyView get(@PathParam("cluster") String cluster) {
        tenancy.cluster(cluster);
        return admission.policy(cluster);
    }

    @PUT
    @Operation(summary = "Set the admission policy from now on (audited); queued jobs are decided again under it")
    @APIResponse(responseCode = "200", description = "The policy now in force")
    @APIResponse(responseCode = "400", description = "Invalid body; problem+json names each field")
    @APIResponse(responseCode = "401", description = "No valid token")
    @APIResponse(responseCode = "403", description = "Not an admin")
    @APIResponse(responseCode = "404", description = "Unknown cluster")
    @APIResponse(responseCode = "409", description = "The cluster has no ledger settings (no capacity) yet")
    @APIResponse(responseCode = "422", description = "Parameters that do not go together (alpha without exponential smoothing)")
    public AdmissionService.PolicyView put(@PathParam("cluster") String cluster,
            @Valid @NotNull(message = "a JSON body is required") PolicySettings body) {
        tenancy.cluster(cluster);
        String problem = body.problem();
        if (problem != null) {
            throw new Invalid(problem);
        }
        admission.changePolicy(cluster, body);
        return admission.policy(cluster);
    }
}
