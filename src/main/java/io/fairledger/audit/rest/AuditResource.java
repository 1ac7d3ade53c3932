package io.fairledger.audit.rest;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.audit.AuditCsv;
import io.fairledger.audit.AuditTrail;
import io.fairledger.errors.Invalid;
import io.fairledger.security.Roles;
import io.fairledger.web.QueryParameters;

/** The audit trail of administrative changes, newest first, a page at a time (docs/api.md, "Audit trail"). */
@Path("/api/v1/admin/audit")
@RolesAllowed(Roles.ADMIN)
public class AuditResource {

    /** How many changes a page holds without {@code limit}. */
    static final int DEFAULT_LIMIT = 100;

    /** The most changes one page holds. */
    static final int MAX_LIMIT = 1000;

    @Inject
    AuditTrail audit;

    @GET
    @Produces({MediaType.APPLICATION_JSON, "text/csv"})
    @Operation(summary = "Administrative changes, newest first, of one cluster or of all, in a time range, a page at a time (JSON, or CSV with format=csv)")
    @APIResponse(responseCode = "200", description = "who changed what, when, before and after, effective from; a "
            + "Link header with rel=\"next\" when older changes follow")
    @APIResponse(responseCode = "400", description = "limit is not from 1 to 1000, or cursor is not one of this list's")
    @APIResponse(responseCode = "422", description = "from or to is not an ISO-8601 instant, or to is not after from; "
            + "unknown format")
    public Response changes(@QueryParam("cluster") String clusterId, @QueryParam("from") String from,
            @QueryParam("to") String to, @QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @QueryParam("format") String format, @HeaderParam("Accept") String accept, @Context UriInfo uri) {
        boolean csv = QueryParameters.csv(format, accept);
        Instant start = instant("from", from);
        Instant end = instant("to", to);
        if (start != null && end != null && !end.isAfter(start)) {
            throw Invalid.field("query.to", "to " + end + " must be after from " + start);
        }
        int size = QueryParameters.limit(limit, DEFAULT_LIMIT, MAX_LIMIT);
        List<AuditTrail.Change> found = audit.newest(blankToNull(clusterId), start, end,
                QueryParameters.after(cursor, "audit"), size + 1);
        List<AuditTrail.Change> page = found.size() > size ? found.subList(0, size) : found;
        Response.ResponseBuilder answer = csv
                ? Response.ok(AuditCsv.write(page), "text/csv")
                : Response.ok(page, MediaType.APPLICATION_JSON);
        if (found.size() > size) {
            answer.header(HttpHeaders.LINK, QueryParameters.nextLink(uri,
                    QueryParameters.cursor("audit", page.get(page.size() - 1).id())));
        }
        return answer.build();
    }

    private static Instant instant(String name, String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(text.strip());
        } catch (DateTimeParseException e) {
            throw Invalid.field("query." + name, name + " must be an ISO-8601 instant such as 2026-11-22T00:00:00Z, "
                    + "got '" + text + "'");
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
