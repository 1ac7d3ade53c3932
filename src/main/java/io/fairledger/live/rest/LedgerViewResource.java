package io.fairledger.live.rest;

import java.util.List;

import io.fairledger.live.LiveViewsModel;
import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.TenantPath;
import io.fairledger.live.LiveLedgers;
import io.fairledger.live.LiveView;
import io.fairledger.live.LiveViewsModel.FairnessHistory;
import io.fairledger.live.LiveViewsModel.FairnessView;
import io.fairledger.live.LiveViewsModel.GrantExplanation;
import io.fairledger.live.LiveViewsModel.TenantView;
import io.fairledger.accounting.StatementCsv;
import io.fairledger.accounting.StatementFormat;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;
import io.fairledger.errors.NotFound;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.AccessDenied;
import io.quarkus.security.identity.SecurityIdentity;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The live ledger over HTTP: each tenant's own numbers for tenants, cluster aggregates for everybody with a tenant in
 * the cluster (the grants for resource managers are {@link GrantsRoute}). A tenant asking for another tenant's numbers gets 403.
 */
@Path("/api/v1/clusters/{clusterId}")
@Produces(MediaType.APPLICATION_JSON)
public class LedgerViewResource {

    @Inject
    LiveLedgers ledgers;

    @Inject
    SecurityIdentity identity;

    @Inject
    StatementService statements;

    @Inject
    SettingsInForce inForce;

    @GET
    @Path("fairness")
    @RolesAllowed({Roles.TENANT, Roles.RESOURCE_MANAGER, Roles.ADMIN})
    @Operation(summary = "Cluster-wide fairness: sharing benefit and loss, Jain's index, utilization, capacity")
    @APIResponse(responseCode = "200", description = "aggregates of the open period")
    @APIResponse(responseCode = "403", description = "a tenant with no tenant in this cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "the cluster has no ledger settings yet")
    public FairnessView fairness(@PathParam("clusterId") String clusterId) {
        TenantScope scope = TenantScope.of(identity);
        boolean privileged = scope.seesAll() || identity.hasRole(Roles.RESOURCE_MANAGER);
        if (!privileged && scope.tenants(clusterId).isEmpty()) {
            throw new AccessDenied("you have no tenant in cluster '" + clusterId + "'");
        }
        return FairnessView.of(ledgers.view(clusterId));
    }

    @GET
    @Path("tenants/{tenant}")
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "One tenant now and over the open period: share, usage A/F/E, rho, lending balance, charge to date, grant")
    @APIResponse(responseCode = "200", description = "the tenant's numbers as of the latest event")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public TenantView tenant(@PathParam("clusterId") String clusterId, @PathParam("tenant") String tenant) {
        LiveView view = ledgers.view(clusterId);
        return LiveViewsModel.tenant(view, account(view, tenant));
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
        LiveView view = ledgers.view(clusterId);
        TenantPath path = account(view, tenant).path();
        String id = path.toString();
        List<StatementView> closed = statements.statementsOf(clusterId, path, false, view.asOf());
        return new FairnessHistory(clusterId, id, LiveViewsModel.degrees(id, closed, view.openStatement()));
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
        LiveView view = ledgers.view(clusterId);
        String id = account(view, tenant).path().toString();
        return view.levelOf(id).map(level -> GrantExplanation.of(view, id, level))
                .orElseThrow(() -> new NotFound("the root is not granted: it is the whole cluster"));
    }

    @GET
    @Path("tenants/{tenant}/statements")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "A tenant's statements: its lines (and its subtree's) of every closed period, JSON or CSV (format=csv)")
    @APIResponse(responseCode = "200", description = "the statements, restricted to the tenant's subtree")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public Response tenantStatements(@PathParam("clusterId") String clusterId,
            @PathParam("tenant") String tenant, @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        authorise(clusterId, tenant);
        TenantPath own = path(tenant);
        List<StatementView> mine = statements.statementsOf(clusterId, own, true, java.time.Instant.now()).stream()
                .map(StatementView::withoutTotal).toList();
        if (StatementFormat.csv(format, accept)) {
            return Response.ok(StatementCsv.write(mine, inForce.settings(clusterId).currency()), "text/csv")
                    .build();
        }
        return Response.ok(mine, MediaType.APPLICATION_JSON).build();
    }

    private TenantAccount account(LiveView view, String tenant) {
        authorise(view.cluster(), tenant);
        String id = path(tenant).toString();
        return view.account(id).orElseThrow(() -> new NotFound("cluster '" + view.cluster()
                + "' has no tenant '" + tenant + "' in its ledger"));
    }

    private void authorise(String clusterId, String tenant) {
        ledgers.view(clusterId);
        TenantScope scope = TenantScope.of(identity);
        if (!scope.maySee(clusterId, tenant)) {
            throw new AccessDenied("tenant '" + tenant + "' of cluster '" + clusterId
                    + "' is not yours: your token names " + scope.tenants(clusterId));
        }
    }

    private static TenantPath path(String tenant) {
        try {
            return TenantPath.parse(tenant);
        } catch (IllegalArgumentException e) {
            throw new Invalid("'" + tenant + "' is not a tenant path: " + e.getMessage());
        }
    }
}
