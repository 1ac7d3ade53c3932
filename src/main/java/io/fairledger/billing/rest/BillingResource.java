package io.fairledger.billing.rest;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

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

import io.fairledger.billing.BillingService;
import io.fairledger.billing.Invoice;
import io.fairledger.billing.InvoicePdf;
import io.fairledger.errors.Invalid;
import io.fairledger.security.Roles;

/** The FOCUS export of a cluster's closed periods and a tenant's invoices (docs/billing.md, docs/api.md). */
@Path("/api/v1/clusters/{clusterId}")
public class BillingResource {

    /** The media type of a PDF. */
    static final String PDF = "application/pdf";

    @Inject
    BillingService billing;

    @GET
    @Path("focus")
    @Produces("text/csv")
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "The closed periods within [from, to) as a FOCUS 1.3 cost and usage dataset (CSV); a tenant gets its own subtrees' rows")
    @APIResponse(responseCode = "200", description = "one row per tenant, closed period and resource, and one per correction")
    @APIResponse(responseCode = "403", description = "no tenant of yours in the cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "a period in the range is billed GROUP_BUY, which FOCUS rows do not map")
    @APIResponse(responseCode = "422", description = "from or to not an instant, from not before to, or to before the registration")
    public Response focus(@PathParam("clusterId") String clusterId, @QueryParam("from") String from,
            @QueryParam("to") String to) {
        Instant end = to == null || to.isBlank() ? Instant.now() : instant("to", to);
        Instant start = from == null || from.isBlank() ? null : instant("from", from);
        return Response.ok(billing.focusCsv(clusterId, start, end), "text/csv").build();
    }

    @GET
    @Path("tenants/{tenant}/invoices/{period}")
    @Produces({MediaType.APPLICATION_JSON, PDF})
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "A tenant's invoice for a closed period: JSON, or PDF with format=pdf or Accept: application/pdf")
    @APIResponse(responseCode = "200", description = "the invoice")
    @APIResponse(responseCode = "403", description = "not your tenant")
    @APIResponse(responseCode = "404", description = "no such cluster, period, or line of the tenant in it")
    @APIResponse(responseCode = "409", description = "the period is not closed yet, or is billed GROUP_BUY")
    @APIResponse(responseCode = "422", description = "an inner tenant (never billed), or an unknown format")
    public Response invoice(@PathParam("clusterId") String clusterId, @PathParam("tenant") String tenant,
            @PathParam("period") String period, @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        boolean pdf = pdf(format, accept);
        Invoice invoice = billing.invoice(clusterId, tenant, period);
        if (!pdf) {
            return Response.ok(invoice, MediaType.APPLICATION_JSON).build();
        }
        String file = ("invoice-" + invoice.id() + ".pdf").replaceAll("[^A-Za-z0-9._-]", "_");
        return Response.ok(InvoicePdf.write(invoice), PDF)
                .header("Content-Disposition", "inline; filename=\"" + file + "\"").build();
    }

    private static boolean pdf(String format, String accept) {
        if (format == null || format.isBlank()) {
            return accept != null && accept.contains(PDF);
        }
        return switch (format.strip().toLowerCase(Locale.ROOT)) {
            case "pdf" -> true;
            case "json" -> false;
            default -> throw Invalid.field("query.format", "format must be pdf or json, got '" + format + "'");
        };
    }

    private static Instant instant(String name, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw Invalid.field("query." + name, name + " must be an ISO-8601 instant such as 2026-11-01T00:00:00Z, "
                    + "got '" + text + "'");
        }
    }
}
