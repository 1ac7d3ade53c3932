package io.fairledger.live.rest;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.accounting.StatementCsv;
import io.fairledger.accounting.StatementService;
import io.fairledger.live.LiveViewsModel.FairnessHistory;
import io.fairledger.live.LiveViewsModel.FairnessView;
import io.fairledger.live.LiveViewsModel.GrantExplanation;
import io.fairledger.live.LiveViewsModel.TenantView;
import io.fairledger.live.ScopedLedgerViews;
import io.fairledger.security.Roles;
import io.fairledger.web.QueryParameters;

/**
 * The live ledger over HTTP: each tenant's own numbers for tenants, cluster aggregates for everybody with a tenant in
 * the cluster (the grants for resource managers are {@link GrantsRoute}). A tenant asking for another tenant's numbers
 * gets 403: {@link ScopedLedgerViews} applies the tenant scope, for this resource and the portal alike.
 */
@Path("/api/v1/clusters/{clusterId}")
@Produces(MediaType.APPLICATION_JSON)
public class LedgerViewResource {

    @Inject
    ScopedLedgerViews views;

    @GET
    @Path("fairness")
    @RolesAllowed({Roles.TENANT, Roles.RESOURCE_MANAGER, Roles.ADMIN})
    @Operation(summary = "Cluster-wide fairness: sharing benefit and loss, Jain's index, utilization, capacity")
    @APIResponse(responseCode = "200", description = "aggregates of the open period")
    @APIResponse(responseCode = "403", description = "a tenant with no tenant in this cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "the cluster has no ledger settings yet")
    public FairnessView fairness(@PathParam("clusterId") String clusterId) {
        return views.fairness(clusterId);
    }

    @GET
    @Path("shares")
    @RolesAllowed({Roles.TENANT, Roles.RESOURCE_MANAGER, Roles.ADMIN})
    @Operation(summary = "Every tenant now, as Slurm's sshare: weight, share, open-period usage, rho, lending balance, grant")
    @APIResponse(responseCode = "200", description = "one entry per tenant in path order (a tenant sees its subtrees)")
    @APIResponse(responseCode = "403", description = "a tenant with no tenant in this cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    public ScopedLedgerViews.Shares shares(@PathParam("clusterId") String clusterId) {
        return views.shares(clusterId);
    }

    @GET
    @Path("tenants/{tenant}")
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "One tenant now and over the open period: share, usage A/F/E, rho, lending balance, charge to date, grant")
    @APIResponse(responseCode = "200", description = "the tenant's numbers as of the latest event")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public TenantView tenant(@PathParam("clusterId") String clusterId, @PathParam("tenant") String tenant) {
        return views.tenant(clusterId, tenant);
    }

    @GET
    @Path("tenants/{tenant}/fairness")
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "A tenant's fairness degree per period: every closed period, then the open one to date")
    @APIResponse(responseCode = "200", description = "rho per period (null where the tenant had no entitlement)")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public FairnessHistory fairnessHistory(@PathParam("clusterId") String clusterId,
            @PathParam("tenant") String tenant) {
        return views.fairnessHistory(clusterId, tenant);
    }

    @GET
    @Path("tenants/{tenant}/grant")
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "Why a tenant gets its grant: its siblings' inputs, what their parent split, the order")
    @APIResponse(responseCode = "200", description = "the numbers that produced the grant")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public GrantExplanation grantExplanation(@PathParam("clusterId") String clusterId,
            @PathParam("tenant") String tenant) {
        return views.grantExplanation(clusterId, tenant);
    }

    /** The most periods one page of a tenant's statements holds, and how many a request without limit gets. */
    public static final int MAX_PERIODS_PER_PAGE = 1000;

    @GET
    @Path("tenants/{tenant}/statements")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "A tenant's statements: its lines (and its subtree's) of every ended period, a page at a time, JSON or CSV (format=csv)")
    @APIResponse(responseCode = "200", description = "the statements, restricted to the tenant's subtree; a Link "
            + "header with rel=\"next\" when more periods follow")
    @APIResponse(responseCode = "400", description = "limit is not from 1 to " + MAX_PERIODS_PER_PAGE
            + ", or cursor is not one of this list's")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public Response tenantStatements(@PathParam("clusterId") String clusterId,
            @PathParam("tenant") String tenant, @QueryParam("format") String format,
            @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @HeaderParam("Accept") String accept, @Context UriInfo uri) {
        boolean csv = QueryParameters.csv(format, accept);
        String list = "statements of " + tenant + " in " + clusterId;
        StatementService.Page page = views.tenantStatements(clusterId, tenant, QueryParameters.after(cursor, list),
                QueryParameters.limit(limit, MAX_PERIODS_PER_PAGE, MAX_PERIODS_PER_PAGE));
        Response.ResponseBuilder answer = csv
                ? Response.ok(StatementCsv.write(page.items()), "text/csv")
                : Response.ok(page.items(), MediaType.APPLICATION_JSON);
        if (page.more()) {
            long last = page.items().get(page.items().size() - 1).end().toEpochMilli();
            answer.header(HttpHeaders.LINK, QueryParameters.nextLink(uri, QueryParameters.cursor(list, last)));
        }
        return answer.build();
    }
}
