package io.fairledger.accounting.rest;

import java.util.Map;

import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.accounting.LedgerKeys;

/**
 * The public keys that sign closed statements, as a JWK set, for every caller who may read statements (a tenant, a
 * resource manager, an administrator): as every {@code /api} path it needs a token, and a tenant's suffices to check
 * its own statements' signatures.
 */
@Path("/api/v1/ledger-keys")
@RolesAllowed({"tenant", "resource-manager", "admin"})
public class LedgerKeyResource {

    /** The media type of a JWK set (RFC 7517 section 8.5.2). */
    static final String JWK_SET = "application/jwk-set+json";

    @Inject
    LedgerKeys keys;

    @GET
    @Produces({"application/json", JWK_SET})
    @Operation(summary = "The Ed25519 public keys of closed statements' signatures, as a JWK set")
    @APIResponse(responseCode = "200", description = "the signing key first, then those used before a rotation")
    public Map<String, Object> keys() {
        return keys.jwkSet();
    }
}
