package io.fairledger.portal;

import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.fairledger.billing.BillingService;
import io.fairledger.billing.Invoice;
import io.fairledger.billing.InvoicePdf;

/**
 * A tenant's invoice for a closed period as a printable page, and its PDF, from {@link BillingService} as the API's
 * (another tenant's invoice is refused there). docs/portal.md.
 */
@Path("/portal/clusters/{cluster}/tenants/{tenant}/invoices")
@Produces(MediaType.TEXT_HTML)
public class InvoicePage {

    @Inject
    SecurityIdentity identity;

    @Inject
    BillingService billing;

    @ConfigProperty(name = "quarkus.oidc.portal.tenant-enabled", defaultValue = "false")
    boolean oidc;

    /** The page, {@code templates/portal/invoice.html}. */
    @CheckedTemplate(basePath = "portal")
    static class Templates {
        static native TemplateInstance invoice(Viewer viewer, Invoice invoice);
    }

    @GET
    @Path("{period}")
    @Operation(hidden = true)
    public TemplateInstance page(@PathParam("cluster") String cluster, @PathParam("tenant") String tenant,
            @PathParam("period") String period) {
        Viewer viewer = Viewer.reader(identity, oidc);
        return Templates.invoice(viewer, billing.invoice(cluster, tenant, period));
    }

    @GET
    @Path("{period}.pdf")
    @Produces("application/pdf")
    @Operation(hidden = true)
    public Response pdf(@PathParam("cluster") String cluster, @PathParam("tenant") String tenant,
            @PathParam("period") String period) {
        Viewer.reader(identity, oidc);
        Invoice invoice = billing.invoice(cluster, tenant, period);
        String file = ("invoice-" + invoice.id() + ".pdf").replaceAll("[^A-Za-z0-9._-]", "_");
        return Response.ok(InvoicePdf.write(invoice), "application/pdf")
                .header("Content-Disposition", "attachment; filename=\"" + file + "\"").build();
    }

    @ServerExceptionMapper
    public Response failed(Exception e, UriInfo uri) {
        return PortalErrors.page(e, uri.getPath());
    }
}
