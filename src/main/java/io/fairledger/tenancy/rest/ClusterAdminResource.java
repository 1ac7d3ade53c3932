package io.fairledger.tenancy.rest;

import java.math.BigDecimal;
import java.net.URI;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.tenancy.Changed;
import io.fairledger.tenancy.ClusterView;
import io.fairledger.tenancy.ConfigurationChanges;
import io.fairledger.tenancy.ExpectedVersion;
import io.fairledger.tenancy.ResourceManagerKind;
import io.fairledger.tenancy.TenancyService;
import io.fairledger.tenancy.TenantView;
import io.fairledger.web.IfMatch;

/** Admin API for clusters and their tenant trees. */
@Path("/api/v1/admin/clusters")
@RolesAllowed("admin")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ClusterAdminResource {

    @Inject
    TenancyService tenancy;

    @Inject
    ConfigurationChanges changes;

    /** A cluster to register. */
    public record ClusterRegistration(
            @NotNull(message = "id is required") @Pattern(regexp = ConfigurationChanges.CLUSTER_ID_PATTERN, message = "id must be 1-63 lower-case letters, digits or '-', starting with a letter or digit") String id,
            @Size(max = 200, message = "name is at most 200 characters") String name,
            @NotNull(message = "resourceManager is required: YARN or MESOS") ResourceManagerKind resourceManager,
            @DecimalMin(value = "0", message = "discountRate must be between 0 and 1") @DecimalMax(value = "1", message = "discountRate must be between 0 and 1") @Digits(integer = 1, fraction = 5, message = "discountRate has at most 5 decimal places") BigDecimal discountRate) {
    }

    /**
     * A tenant's settings: weight (0 means no entitlement, may only borrow) and an optional discount-rate override. The
     * largest weight is {@code SettingsLimits}'s (999999.999999), which refuses a larger one naming {@code weight}.
     */
    public record TenantSettings(
            @NotNull(message = "weight is required") @DecimalMin(value = "0", message = "weight must be >= 0") @Digits(integer = 7, fraction = 6, message = "weight has at most 6 decimal places (a smaller positive weight would be stored as 0)") BigDecimal weight,
            @DecimalMin(value = "0", message = "discountRateOverride must be between 0 and 1") @DecimalMax(value = "1", message = "discountRateOverride must be between 0 and 1") @Digits(integer = 1, fraction = 5, message = "discountRateOverride has at most 5 decimal places") BigDecimal discountRateOverride) {
    }

    @POST
    @Transactional
    @Operation(summary = "Register a cluster (audited)")
    @APIResponse(responseCode = "201", description = "registered")
    @APIResponse(responseCode = "400", description = "invalid body")
    @APIResponse(responseCode = "409", description = "the id is taken")
    public Response register(@NotNull(message = "a JSON body is required") @Valid ClusterRegistration body) {
        ClusterView cluster = changes.registerCluster(body.id(), body.name(), body.resourceManager(),
                body.discountRate());
        return Response.created(URI.create("/api/v1/admin/clusters/" + cluster.id())).entity(cluster).build();
    }

    @GET
    @Operation(summary = "Every registered cluster")
    @APIResponse(responseCode = "200", description = "the clusters")
    public List<ClusterView> clusters() {
        return tenancy.views();
    }

    @GET
    @Path("{clusterId}")
    @Operation(summary = "One cluster")
    @APIResponse(responseCode = "200", description = "the cluster")
    @APIResponse(responseCode = "404", description = "no such cluster")
    public ClusterView cluster(@PathParam("clusterId") String clusterId) {
        return tenancy.view(clusterId);
    }

    @GET
    @Path("{clusterId}/tenants")
    @Operation(summary = "A cluster's tenant tree")
    @APIResponse(responseCode = "200", description = "every node, in path order; ETag the cluster's configuration "
            + "version, for If-Match")
    @APIResponse(responseCode = "404", description = "no such cluster")
    public Response tenants(@PathParam("clusterId") String clusterId) {
        // the version first: should a change come between, the tag is older than the body and a PUT on it gets 412
        String version = changes.version(clusterId);
        return IfMatch.tagged(tenancy.tenants(clusterId), version);
    }

    @GET
    @Path("{clusterId}/tenants/{path: .+}")
    @Operation(summary = "One tenant's configuration")
    @APIResponse(responseCode = "200", description = "the tenant; ETag the cluster's configuration version, for "
            + "If-Match")
    @APIResponse(responseCode = "404", description = "no such cluster or tenant")
    public Response tenant(@PathParam("clusterId") String clusterId, @PathParam("path") String path) {
        String version = changes.version(clusterId);
        return IfMatch.tagged(tenancy.tenant(clusterId, path), version);
    }

    /**
     * Creates or updates a tenant (YARN queue path or Mesos role, URL-encoded), creating missing ancestors. Like every
     * configuration change it takes effect just after the latest stored fact, never in a closed period (closable
     * periods are closed first: {@link io.fairledger.tenancy.ClosablePeriods}) and is audited. With {@code If-Match} it is made only on the configuration version named (the
     * ETag of any GET of the cluster's tenants or ledger settings: one version covers both); it answers once this
     * replica's reads serve it, or after a bounded wait ({@link ConfigurationChanges#awaitServed}).
     */
    @PUT
    @Path("{clusterId}/tenants/{path: .+}")
    @Operation(summary = "Create or update a tenant's weight and discount-rate override (audited)")
    @APIResponse(responseCode = "200", description = "the tenant as stored; ETag the new configuration version, "
            + IfMatch.VISIBLE + " whether this replica's reads serve it yet")
    @APIResponse(responseCode = "400", description = "invalid body or If-Match")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "412", description = "If-Match names a version other than the current one")
    @APIResponse(responseCode = "422", description = "an invalid tenant path")
    public Response putTenant(@PathParam("clusterId") String clusterId, @PathParam("path") String path,
            @Context HttpHeaders headers,
            @NotNull(message = "a JSON body is required") @Valid TenantSettings body) {
        Changed<TenantView> changed = changes.putTenant(clusterId, path, body.weight(), body.discountRateOverride(),
                new ExpectedVersion(IfMatch.versions(headers)));
        return IfMatch.changed(changed.value(), changed.version(), changes.awaitServed(clusterId));
    }
}
