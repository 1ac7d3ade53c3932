package io.fairledger.accounting.rest;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.accounting.StatementCsv;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.accounting.WhatIfService;
import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.Changed;
import io.fairledger.tenancy.ConfigurationChanges;
import io.fairledger.tenancy.ExpectedVersion;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.web.IfMatch;
import io.fairledger.web.QueryParameters;

/** Admin API for a cluster's ledger settings and its statements. */
@Path("/api/v1/admin/clusters/{clusterId}")
@RolesAllowed("admin")
public class StatementResource {

    @Inject
    StatementService statements;

    @Inject
    SettingsInForce inForce;

    @Inject
    WhatIfService whatIfs;

    @Inject
    ConfigurationChanges changes;

    @Inject
    ObjectMapper json;

    @PUT
    @Path("ledger-settings")
    @Operation(summary = "Set how the cluster's books are kept (audited; counts from just after the latest stored fact)")
    @APIResponse(responseCode = "200", description = "the settings now in effect; ETag their version, "
            + IfMatch.VISIBLE + " whether this replica's reads serve them yet")
    @APIResponse(responseCode = "400", description = "malformed body or If-Match")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "412", description = "If-Match names a version other than the current one")
    @APIResponse(responseCode = "422", description = "invalid settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Response putSettings(@PathParam("clusterId") String clusterId, @Context HttpHeaders headers,
            @NotNull(message = "a JSON body is required") LedgerSettings body) {
        Changed<LedgerSettings> changed = changes.putLedgerSettings(clusterId, body,
                new ExpectedVersion(IfMatch.versions(headers)));
        return IfMatch.changed(changed.value(), changed.version(), changes.awaitServed(clusterId));
    }

    @GET
    @Path("ledger-settings")
    @Operation(summary = "How the cluster's books are kept, with its tenant tree")
    @APIResponse(responseCode = "200", description = "the settings; ETag their version, for If-Match")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "no ledger settings yet")
    @Produces(MediaType.APPLICATION_JSON)
    public Response settings(@PathParam("clusterId") String clusterId) {
        // the version first: should a change come between, the tag is older than the body and a PUT on it gets 412
        String version = changes.version(clusterId);
        return IfMatch.tagged(inForce.settings(clusterId), version);
    }

    /** The most statements (periods) one page holds, and how many a request without {@code limit} gets. */
    public static final int MAX_PERIODS_PER_PAGE = 100;

    /**
     * Statements of the periods ended by {@code until} (ISO-8601 instant; default now), a page at a time (docs/api.md,
     * "Pagination"), as JSON or, with {@code ?format=csv} or {@code Accept: text/csv}, as CSV, each period in the
     * currency it was closed in.
     */
    @GET
    @Path("statements")
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @Operation(summary = "Every tenant's statements of the periods ended by until, a page at a time (JSON, or CSV with format=csv)")
    @APIResponse(responseCode = "200", description = "closed periods as stored, younger ones provisional; a Link "
            + "header with rel=\"next\" when more periods follow")
    @APIResponse(responseCode = "400", description = "limit is not from 1 to " + MAX_PERIODS_PER_PAGE
            + ", or cursor is not one of this list's")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "no ledger settings yet")
    @APIResponse(responseCode = "422", description = "until is not an instant or before registration; unknown format")
    public Response statements(@PathParam("clusterId") String clusterId, @QueryParam("until") String until,
            @QueryParam("format") String format, @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor, @HeaderParam("Accept") String accept, @Context UriInfo uri) {
        Instant at = instant(until);
        boolean csv = QueryParameters.csv(format, accept);
        String list = "statements of " + clusterId;
        StatementService.JsonPage page = statements.statementsJson(clusterId, at,
                QueryParameters.after(cursor, list),
                QueryParameters.limit(limit, MAX_PERIODS_PER_PAGE, MAX_PERIODS_PER_PAGE));
        byte[][] pieces = page.json().pieces();
        Response.ResponseBuilder answer = csv
                ? Response.ok(StatementCsv.write(parse(pieces)), "text/csv")
                // closed statements are sent as stored, not parsed and written again; one buffer over the pieces,
                // not a copy of them: written to the connection in one go
                : Response.ok(Buffer.buffer(Unpooled.wrappedBuffer(pieces.length, pieces)),
                        MediaType.APPLICATION_JSON);
        if (page.more()) {
            answer.header(HttpHeaders.LINK, QueryParameters.nextLink(uri,
                    QueryParameters.cursor(list, page.lastEnd().toEpochMilli())));
        }
        return answer.build();
    }

    private List<StatementView> parse(byte[][] pieces) {
        try {
            return json.readValue(Unpooled.wrappedBuffer(pieces).toString(StandardCharsets.UTF_8),
                    new TypeReference<List<StatementView>>() {
                    });
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the server's own statements are unreadable", e);
        }
    }

    /** A what-if: a past range and a configuration variant (null: the live one). */
    public record WhatIfRequest(@NotNull(message = "from is required (an ISO-8601 instant)") Instant from,
            @NotNull(message = "until is required (an ISO-8601 instant)") Instant until, LedgerSettings settings) {
    }

    @POST
    @Path("what-if")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Statements and fairness a past range would have had under a configuration variant; changes nothing")
    @APIResponse(responseCode = "200", description = "one entry per period ending in (from, until], and where the "
            + "replay started and how many facts it replayed")
    @APIResponse(responseCode = "400", description = "malformed body")
    @APIResponse(responseCode = "404", description = "no such cluster")
    @APIResponse(responseCode = "409", description = "the cluster has no ledger settings yet")
    @APIResponse(responseCode = "422", description = "an invalid variant or range, or a range longer than "
            + "fairledger.what-if.max-window")
    @APIResponse(responseCode = "503", description = "the replay passed fairledger.what-if.deadline and stopped; "
            + "Retry-After says when to ask again")
    public WhatIfService.WhatIf whatIf(@PathParam("clusterId") String clusterId,
            @NotNull(message = "a JSON body is required") @Valid WhatIfRequest body,
            @Context HttpServerResponse response) {
        return whatIfs.whatIf(clusterId, body.settings(), body.from(), body.until(), response::closed);
    }

    private static Instant instant(String text) {
        if (text == null || text.isBlank()) {
            return Instant.now();
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new Invalid("until must be an ISO-8601 instant such as 2026-11-22T00:00:00Z, got '"
                    + text + "'");
        }
    }
}
