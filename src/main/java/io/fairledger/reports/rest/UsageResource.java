package io.fairledger.reports.rest;

import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.errors.AccessDenied;
import io.fairledger.reports.UsageCsv;
import io.fairledger.reports.UsageReport;
import io.fairledger.reports.UsageService;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;
import io.fairledger.web.QueryParameters;

/**
 * Usage of one cluster over any window, the reporting query of docs/reports.md, as JSON or CSV (several clusters at
 * once: {@link UsagesResource}). Checked like the tenant statements: an admin sees
 * every tenant, a tenant only the lines of its own subtrees (its groups and totals are sums of those lines).
 */
@Path("/api/v1/clusters/{clusterId}/usage")
public class UsageResource {

    @Inject
    UsageService usage;

    @Inject
    SecurityIdentity identity;

    @GET
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "Usage, counted usage, entitlement, rho and charges over a window, per step and group (JSON, or CSV with format=csv)")
    @APIResponse(responseCode = "200", description = "buckets of whole periods, each with one row per group")
    @APIResponse(responseCode = "403", description = "a tenant with no tenant in this cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "the cluster has no ledger settings yet")
    @APIResponse(responseCode = "422", description = "a malformed from, to, step, aggregate, accumulate, tenant or "
            + "format")
    public Response usage(@PathParam("clusterId") String clusterId,
            @Parameter(description = "window start, ISO-8601 instant; default the registration") @QueryParam("from") String from,
            @Parameter(description = "window end, ISO-8601 instant; default now") @QueryParam("to") String to,
            @Parameter(description = "bucket length, ISO-8601 duration, a whole number of periods; default the window") @QueryParam("step") String step,
            @Parameter(description = "tenant (default), parent or cluster") @QueryParam("aggregate") String aggregate,
            @Parameter(description = "true: every step summed into one bucket; default false") @QueryParam("accumulate") String accumulate,
            @Parameter(description = "a tenant path: only that tenant and the tenants under it") @QueryParam("tenant") String tenant,
            @Parameter(description = "json (default) or csv") @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        boolean csv = QueryParameters.csv(format, accept);
        UsageReport report = report(clusterId, new UsageService.Query(from, to, step, aggregate, accumulate, tenant));
        return csv
                ? Response.ok(UsageCsv.write(List.of(report)), "text/csv").build()
                : Response.ok(report, MediaType.APPLICATION_JSON).build();
    }

    /** The report of {@code clusterId} as the caller may see it; 403 for a tenant with no tenant in the cluster. */
    UsageReport report(String clusterId, UsageService.Query query) {
        TenantScope scope = TenantScope.of(identity);
        if (!scope.seesAll() && scope.tenants(clusterId).isEmpty()) {
            throw new AccessDenied("you have no tenant in cluster '" + clusterId + "'");
        }
        return usage.report(clusterId, query, tenant -> scope.maySee(clusterId, tenant));
    }
}
