package io.fairledger.reports.rest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.errors.Invalid;
import io.fairledger.reports.UsageCsv;
import io.fairledger.reports.UsageReport;
import io.fairledger.reports.UsageService;
import io.fairledger.security.Roles;
import io.fairledger.web.QueryParameters;

/**
 * The usage reports of several clusters at once ({@code GET /api/v1/usage?cluster=a&cluster=b}, the parameters of
 * {@link UsageResource}), each checked as that resource checks one, as a JSON array or as one CSV sheet.
 */
@Path("/api/v1/usage")
public class UsagesResource {

    /** The most clusters one request may name. */
    static final int MAX_CLUSTERS = 100;

    @Inject
    UsageResource one;

    @GET
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @RolesAllowed({Roles.TENANT, Roles.ADMIN})
    @Operation(summary = "The usage reports of several clusters at once, in the order named (JSON array, or one CSV with a cluster column)")
    @APIResponse(responseCode = "200", description = "one report per cluster named")
    @APIResponse(responseCode = "403", description = "a tenant with no tenant in one of the clusters")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "a cluster has no ledger settings yet")
    @APIResponse(responseCode = "422", description = "no cluster, more than " + MAX_CLUSTERS + ", or a malformed "
            + "from, to, step, aggregate, accumulate, tenant or format")
    public Response usages(
            @Parameter(description = "a cluster id, repeated for each cluster") @QueryParam("cluster") List<String> clusters,
            @QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("step") String step,
            @QueryParam("aggregate") String aggregate, @QueryParam("accumulate") String accumulate,
            @QueryParam("tenant") String tenant, @QueryParam("format") String format,
            @HeaderParam("Accept") String accept) {
        boolean csv = QueryParameters.csv(format, accept);
        Set<String> named = new LinkedHashSet<>(clusters == null ? List.of() : clusters);
        if (named.isEmpty() || named.size() > MAX_CLUSTERS) {
            throw Invalid.field("query.cluster",
                    "name from 1 to " + MAX_CLUSTERS + " clusters, as cluster=a&cluster=b");
        }
        UsageService.Query query = new UsageService.Query(from, to, step, aggregate, accumulate, tenant);
        List<UsageReport> reports = new ArrayList<>();
        for (String clusterId : named) {
            reports.add(one.report(clusterId, query));
        }
        return csv
                ? Response.ok(UsageCsv.write(reports), "text/csv").build()
                : Response.ok(reports, MediaType.APPLICATION_JSON).build();
    }

}
