package io.fairledger.portal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.fairledger.accounting.StatementView;
import io.fairledger.admission.AdmissionService;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.DomainException;
import io.fairledger.errors.NotFound;
import io.fairledger.live.LiveLedgers;
import io.fairledger.live.LiveView;
import io.fairledger.live.LiveViewsModel;
import io.fairledger.live.ScopedLedgerViews;
import io.fairledger.security.TenantScope;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.TenancyService;

/**
 * The tenant portal: the clusters and tenants a login covers and, per tenant, its numbers as the API gives them. Every
 * number comes through {@link ScopedLedgerViews}, as the API's do, so the {@code fairledger_tenants} claim is applied
 * exactly as for the API (another tenant's page is refused before any of its numbers is read), and a page needs the
 * tenant or admin role, as the API's tenant calls do.
 * Sign-in is the web-app OIDC tenant {@code portal} (application.properties); in standalone mode without OIDC,
 * loopback callers are the local admin.
 */
@Path("/portal")
@Produces(MediaType.TEXT_HTML)
public class TenantPages {

    @Inject
    SecurityIdentity identity;

    @Inject
    ScopedLedgerViews ledgerViews;

    @Inject
    LiveLedgers ledgers;

    @Inject
    TenancyService tenancy;

    @Inject
    AdmissionService admission;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "quarkus.oidc.portal.tenant-enabled", defaultValue = "false")
    boolean oidc;

    @GET
    @Operation(hidden = true)
    public TemplateInstance home() {
        Viewer viewer = reader();
        return PortalTemplates.home(viewer, clusters(TenantScope.of(identity)));
    }

    @GET
    @Path("clusters/{cluster}/tenants/{tenant}")
    @Operation(hidden = true)
    public TemplateInstance tenant(@PathParam("cluster") String cluster, @PathParam("tenant") String tenant) {
        Viewer viewer = reader();
        LiveViewsModel.TenantView view = ledgerViews.tenant(cluster, tenant); // refuses another tenant's page
        LiveViewsModel.FairnessView aggregates = ledgerViews.fairness(cluster);
        PortalModel.GrantWords grant = null;
        try {
            grant = PortalModel.GrantWords.of(ledgerViews.grantExplanation(cluster, view.tenant()));
        } catch (NotFound rootIsNotGranted) {
            // the root is the whole cluster: no grant to explain
        }
        LiveView live = ledgers.view(cluster);
        // periods that start after the latest event have seen nothing yet: the downloads list them, the page does not
        List<StatementView> ended = ledgerViews.tenantStatements(cluster, view.tenant()).stream()
                .filter(s -> !s.start().isAfter(live.asOf())).toList();
        List<PortalModel.PeriodRow> periods = PortalModel.periods(view.tenant(), ended,
                live.openStatementOf(view.tenant()),
                live.asOf());
        List<PortalModel.JobRow> jobs = List.of();
        String jobsNote = null;
        try {
            TenantPath path = TenantPath.parse(view.tenant());
            jobs = admission.read(cluster, s -> s.jobsOf(path)).stream().map(PortalModel.JobRow::of).toList();
        } catch (DomainException e) {
            jobsNote = "Admission decisions are not available: " + e.getMessage();
        }
        // parent and children, linked: a tenant scoped to a subtree reaches its inner tenants from its page
        List<PortalModel.Relative> family = PortalModel.family(view.tenant(),
                live.tenants().stream().map(a -> a.path().toString()).toList());
        return PortalTemplates.tenant(viewer, view, aggregates, grant, periods, ended, jobs, jobsNote,
                scriptJson(PortalModel.chart(periods)), live.currency(), family);
    }

    @GET
    @Path("clusters/{cluster}/tenants/{tenant}/statements.csv")
    @Produces("text/csv")
    @Operation(hidden = true)
    public Response statementsCsv(@PathParam("cluster") String cluster, @PathParam("tenant") String tenant) {
        reader();
        return download(ledgerViews.tenantStatementsCsv(cluster, tenant), cluster, tenant, "csv", "text/csv");
    }

    @GET
    @Path("clusters/{cluster}/tenants/{tenant}/statements.json")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(hidden = true)
    public Response statementsJson(@PathParam("cluster") String cluster, @PathParam("tenant") String tenant) {
        reader();
        return download(ledgerViews.tenantStatements(cluster, tenant), cluster, tenant, "json",
                MediaType.APPLICATION_JSON);
    }

    /** Standalone mode has no single sign-on session; with OIDC the {@code portal} tenant handles this path. */
    @GET
    @Path("logout")
    @Operation(hidden = true)
    public Response logout() {
        return PortalErrors.page(200, "Nothing to sign out of",
                "This server runs in standalone mode: callers on this machine are the local admin.");
    }

    @GET
    @Path("signed-out")
    @Operation(hidden = true)
    public TemplateInstance signedOut() {
        return PortalTemplates.signedOut();
    }

    @GET
    @Path("{unknown: .+}")
    @Operation(hidden = true)
    public Response unknown() {
        return PortalErrors.page(404, "Not Found", "There is no such page.");
    }

    @ServerExceptionMapper
    public Response failed(Exception e, UriInfo uri) {
        return PortalErrors.page(e, uri.getPath());
    }

    private Viewer reader() {
        return Viewer.reader(identity, oidc);
    }

    /** The clusters the login covers, with its tenants in each: for an admin every tenant of the books, inner too. */
    private List<PortalModel.ClusterEntry> clusters(TenantScope scope) {
        List<PortalModel.ClusterEntry> out = new ArrayList<>();
        for (RegisteredCluster c : tenancy.clusters()) {
            List<String> tenants;
            if (scope.seesAll()) {
                tenants = ledgers.find(c.id()).map(v -> v.tenants().stream().map(a -> a.path().toString()).toList())
                        .orElse(List.of());
            } else {
                tenants = List.copyOf(scope.tenants(c.id()));
            }
            if (scope.seesAll() || !tenants.isEmpty()) {
                out.add(new PortalModel.ClusterEntry(c.id(), c.name(), String.valueOf(c.resourceManager()), tenants));
            }
        }
        return out;
    }

    private static Response download(Object body, String cluster, String tenant, String extension, String type) {
        String file = "statements-" + cluster + "-" + tenant + "-" + Instant.now().getEpochSecond() + "." + extension;
        return Response.ok(body, type)
                .header("Content-Disposition", "attachment; filename=\"" + file.replaceAll("[^A-Za-z0-9._-]", "_")
                        + "\"")
                .build();
    }

    /** JSON safe inside a {@code <script type="application/json">} element. */
    private String scriptJson(Object value) {
        try {
            return json.writeValueAsString(value).replace("<", "\\u003c");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the chart data", e);
        }
    }
}
