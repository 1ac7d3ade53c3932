package io.fairledger.accounting.rest;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

import io.fairledger.accounting.LedgerSettings;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.web.ProblemException;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/** Admin API for a cluster's ledger settings and its statements. */
@Path("/api/v1/admin/clusters/{clusterId}")
@RolesAllowed("admin")
public class StatementResource {

    @Inject
    StatementService statements;

    @PUT
    @Path("ledger-settings")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public LedgerSettings putSettings(@PathParam("clusterId") String clusterId,
            @NotNull(message = "a JSON body is required") LedgerSettings body) {
        return statements.putSettings(clusterId, body);
    }

    @GET
    @Path("ledger-settings")
    @Produces(MediaType.APPLICATION_JSON)
    public LedgerSettings settings(@PathParam("clusterId") String clusterId) {
        return statements.settings(clusterId);
    }

    /** Statements of every period closed by {@code until} (ISO-8601 instant; default now). */
    @GET
    @Path("statements")
    @Produces(MediaType.APPLICATION_JSON)
    public List<StatementView> statements(@PathParam("clusterId") String clusterId, @QueryParam("until") String until) {
        return statements.statements(clusterId, instant(until));
    }

    @GET
    @Path("statements")
    @Produces("text/csv")
    public String statementsCsv(@PathParam("clusterId") String clusterId, @QueryParam("until") String until) {
        return StatementView.csv(statements.statements(clusterId, instant(until)));
    }

    private static Instant instant(String text) {
        if (text == null || text.isBlank()) {
            return Instant.now();
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ProblemException.unprocessable("until must be an ISO-8601 instant such as 2026-11-22T00:00:00Z, got '"
                    + text + "'");
        }
    }
}
