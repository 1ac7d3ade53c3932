package io.fairledger.core.grant;

/**
 * Splits what is available among tenants for the next grant interval (docs/domain.md section 7). Implementations are
 * work-conserving (nothing left idle while a claimant wants more) and never grant above demand.
 */
public interface GrantPolicy {

    /** The grants for {@code request}; does not modify it. */
    Grants grant(GrantRequest request);
}
