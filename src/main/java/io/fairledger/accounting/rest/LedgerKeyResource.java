package io.fairledger.accounting.rest;

import java.util.Map;

import jakarta.annotation.security.PermitAll;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;

import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import io.fairledger.accounting.LedgerKeys;

/**
 * The public keys that sign closed statements, as a JWK set: public, so anyone holding a statement (a tenant, an
 * auditor) can check its signature without a role.
 */
@Path("/api/v1/ledger-keys")
@PermitAll
public class LedgerKeyResource {

    /** The media type of a JWK set (RFC 7517 section 8.5.2). */
    static final String JWK_SET = "application/jwk-set+json";

    @Inject
    LedgerKeys keys;

    @GET
    @Produces({"application/json", JWK_SET})
    @Operation(summary = "The Ed25519 public keys of closed statements' signatures (JWK set; no authentication)")
    @APIResponse(responseCode = "200", description = "the signing key first, then those used before a rotation")
    public Map<String, Object> keys() {
        return keys.jwkSet();
    }
}
