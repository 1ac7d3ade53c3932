package io.fairledger.portal;

import io.quarkus.security.identity.SecurityIdentity;

import io.fairledger.errors.AccessDenied;
import io.fairledger.security.Roles;

/**
 * Who is reading a page: the name shown in the header, whether the admin pages are theirs, and whether there is a
 * single sign-on session to end (not for the trusted loopback operator of standalone mode).
 */
public record Viewer(String name, boolean admin, boolean tenant, boolean signedIn) {

    static Viewer of(SecurityIdentity identity, boolean oidc) {
        String name = identity == null || identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
        return new Viewer(name, identity != null && identity.hasRole(Roles.ADMIN),
                identity != null && identity.hasRole(Roles.TENANT), oidc);
    }

    /**
     * The viewer of a tenant page: {@code AccessDenied} for a login with neither the tenant nor the admin role.
     */
    static Viewer reader(SecurityIdentity identity, boolean oidc) {
        Viewer viewer = of(identity, oidc);
        if (!viewer.reads()) {
            throw new AccessDenied("your login (" + viewer.name() + ") has neither the tenant nor the admin role: "
                    + "ask an admin to add you to your team's group");
        }
        return viewer;
    }

    /** May this login read tenant pages at all (its own tenants for a tenant, every tenant for an admin)? */
    boolean reads() {
        return admin || tenant;
    }
}
