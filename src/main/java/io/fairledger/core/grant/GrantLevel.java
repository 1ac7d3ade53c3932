package io.fairledger.core.grant;

import io.fairledger.core.model.TenantPath;

/**
 * One level of a tree grant (docs/domain.md section 7): the children of {@code parent} competing for what
 * {@code parent} was granted. The request holds the numbers the grant was computed from (weights, shares, demands,
 * scheduling values), which is what an explanation of a grant shows.
 *
 * @param parent
 *            the node whose grant is split
 * @param request
 *            what the grant engine was given
 * @param grants
 *            what it granted, with the order tenants are served in
 */
public record GrantLevel(TenantPath parent, GrantRequest request, Grants grants) {
}
