package io.fairledger.audit.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.audit.AuditTrail;
import io.fairledger.security.Roles;
import io.fairledger.web.QueryParameters;

/** The audit trail of administrative changes, newest first. */
@Path("/api/v1/admin/audit")
@RolesAllowed(Roles.ADMIN)
@Produces(MediaType.APPLICATION_JSON)
public class AuditResource {

    @Inject
    AuditTrail audit;

    @GET
    @Operation(summary = "Administrative changes, newest first, of one cluster or of all")
    @APIResponse(responseCode = "200", description = "who changed what, when, before and after, effective from")
    @APIResponse(responseCode = "400", description = "limit is not an integer")
    @APIResponse(responseCode = "422", description = "limit is not from 1 to 1000")
    public List<AuditTrail.Change> changes(@QueryParam("cluster") String clusterId,
            @QueryParam("limit") String limit) {
        return audit.newest(clusterId, QueryParameters.integer("limit", limit, 100, 1, 1000));
    }
}
