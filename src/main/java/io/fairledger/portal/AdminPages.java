package io.fairledger.portal;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.WhatIfService;
import io.fairledger.admission.AdmissionService;
import io.fairledger.audit.AuditTrail;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.errors.AccessDenied;
import io.fairledger.errors.DomainException;
import io.fairledger.errors.Invalid;
import io.fairledger.live.LiveLedgers;
import io.fairledger.tenancy.ConfigurationChanges;
import io.fairledger.tenancy.ExpectedVersion;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.tenancy.TenantView;

/**
 * The admin portal: clusters, each cluster's tenant tree with weights and discount rates editable in place, a what-if
 * preview of a change (the statements and fairness of the recent periods under it, beside today's) before it is
 * applied, the admission policy and the audit trail. Reads and changes go through the services the admin API calls, so
 * they are validated and audited exactly as over the API; every page needs the admin role, as the admin API does.
 */
@Path("/portal/admin")
@Produces(MediaType.TEXT_HTML)
public class AdminPages {

    /** How many of the latest periods the what-if preview compares. */
    static final int PREVIEW_PERIODS = 6;

    /** How many of the newest audit entries the clusters page shows. */
    static final int AUDIT_ROWS = 50;

    @Inject
    SecurityIdentity identity;

    @Inject
    TenancyService tenancy;

    @Inject
    SettingsInForce inForce;

    @Inject
    WhatIfService whatIfs;

    @Inject
    AdmissionService admission;

    @Inject
    AuditTrail audit;

    @Inject
    ConfigurationChanges changes;

    @Inject
    LiveLedgers ledgers;

    @Inject
    FairledgerConfig config;

    @Inject
    ObjectMapper json;

    @ConfigProperty(name = "quarkus.oidc.portal.tenant-enabled", defaultValue = "false")
    boolean oidc;

    @GET
    @Operation(hidden = true)
    public TemplateInstance clusters() {
        Viewer viewer = admin();
        List<PortalModel.ClusterEntry> clusters = new ArrayList<>();
        for (RegisteredCluster c : tenancy.clusters()) {
            clusters.add(new PortalModel.ClusterEntry(c.id(), c.name(), String.valueOf(c.resourceManager()),
                    ledgers.find(c.id()).map(v -> v.tenants().stream().map(a -> a.path().toString()).toList())
                            .orElse(List.of())));
        }
        return PortalTemplates.admin(viewer, clusters, AuditChanges.rows(audit.newest(null, AUDIT_ROWS), json));
    }

    @GET
    @Path("clusters/{cluster}")
    @Operation(hidden = true)
    public TemplateInstance cluster(@PathParam("cluster") String cluster, @QueryParam("applied") String applied) {
        Viewer viewer = admin();
        // the version first: should a change come between, the form's is older than the page and applying gets 412
        String version = changes.version(cluster);
        List<PortalModel.TenantRow> tenants = tenancy.tenants(cluster).stream()
                .map(t -> new PortalModel.TenantRow(t.path(), t.parent(), t.weight(), t.discountRateOverride()))
                .toList();
        String policy;
        try {
            AdmissionService.PolicyView p = admission.policy(cluster);
            policy = PolicyWords.of(p);
        } catch (DomainException e) {
            policy = "No admission policy yet: " + e.getMessage();
        }
        PortalModel.Books books = null;
        String booksNote = null;
        try {
            books = PortalModel.Books.of(inForce.settings(cluster));
        } catch (DomainException e) {
            booksNote = "No ledger settings yet: " + e.getMessage();
        }
        String notice = applied == null
                ? null
                : "Applied: tenant " + applied + " now has the weight and discount "
                        + "rate shown below; the change is in the audit trail.";
        return PortalTemplates.cluster(viewer, cluster, tenants, policy, notice, books, booksNote, version);
    }

    @POST
    @Path("clusters/{cluster}/preview")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public TemplateInstance preview(@PathParam("cluster") String cluster, @FormParam("tenant") String tenant,
            @FormParam("weight") String weight, @FormParam("discountRateOverride") String discount,
            @FormParam("version") String version, @HeaderParam("Origin") String origin,
            @HeaderParam("Host") String host) {
        SameOrigin.require(origin, host);
        Viewer viewer = admin();
        PortalModel.TenantRow proposed = new PortalModel.TenantRow(required(tenant, "tenant"), null,
                decimal(weight, "weight", true), decimal(discount, "discount rate", false));
        TenantView current = tenancy.tenant(cluster, proposed.path());
        PortalModel.TenantRow today = new PortalModel.TenantRow(current.path(), current.parent(), current.weight(),
                current.discountRateOverride());
        LedgerSettings live = inForce.settings(cluster);
        List<LedgerSettings.Tenant> changed = new ArrayList<>();
        for (LedgerSettings.Tenant t : live.tenants()) {
            changed.add(t.path().equals(proposed.path())
                    ? new LedgerSettings.Tenant(t.path(), proposed.weight().doubleValue(),
                            proposed.discountRateOverride() == null
                                    ? null
                                    : proposed.discountRateOverride().doubleValue(),
                            t.pricePlan())
                    : t);
        }
        WhatIfComparison.Range range = WhatIfComparison.range(live, ledgers.view(cluster), PREVIEW_PERIODS,
                config.whatIf().maxWindow());
        if (WhatIfComparison.empty(range)) {
            return PortalTemplates.preview(viewer, cluster, proposed, today, List.of(), version);
        }
        // the preview's what-ifs stop only at the deadline: the page waits for them
        List<WhatIfService.WhatIfPeriod> now = whatIfs.whatIf(cluster, null, range.from(), range.until(),
                () -> false).periods();
        List<WhatIfService.WhatIfPeriod> then = whatIfs.whatIf(cluster, live.withTenants(changed), range.from(),
                range.until(), () -> false).periods();
        return PortalTemplates.preview(viewer, cluster, proposed, today, WhatIfComparison.compare(now, then),
                version);
    }

    @POST
    @Path("clusters/{cluster}/apply")
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Operation(hidden = true)
    public Response apply(@PathParam("cluster") String cluster, @FormParam("tenant") String tenant,
            @FormParam("weight") String weight, @FormParam("discountRateOverride") String discount,
            @FormParam("version") String version, @HeaderParam("Origin") String origin,
            @HeaderParam("Host") String host) {
        SameOrigin.require(origin, host);
        admin();
        String path = required(tenant, "tenant");
        // made on the version the cluster page was loaded at: a change by someone else since is a 412, not lost
        changes.putTenant(cluster, path, decimal(weight, "weight", true), decimal(discount, "discount rate", false),
                version == null || version.isBlank() ? ExpectedVersion.ANY : new ExpectedVersion(List.of(version)));
        changes.awaitServed(cluster);
        return Response.seeOther(URI.create("/portal/admin/clusters/" + encode(cluster) + "?applied="
                + encode(path))).build();
    }

    @ServerExceptionMapper
    public Response failed(Exception e, UriInfo uri) {
        return PortalErrors.page(e, uri.getPath());
    }

    private Viewer admin() {
        Viewer viewer = Viewer.of(identity, oidc);
        if (!viewer.admin()) {
            throw new AccessDenied("the admin pages are for the admin role; your login (" + viewer.name()
                    + ") does not have it");
        }
        return viewer;
    }

    private static String required(String value, String field) {
        if (value == null || value.isBlank()) {
            throw new Invalid(field + " is required");
        }
        return value.strip();
    }

    private static BigDecimal decimal(String value, String field, boolean required) {
        if (value == null || value.isBlank()) {
            if (required) {
                throw new Invalid(field + " is required");
            }
            return null;
        }
        try {
            return new BigDecimal(value.strip());
        } catch (NumberFormatException e) {
            throw new Invalid(field + " must be a number such as 2 or 0.5, got '" + value.strip() + "'");
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
