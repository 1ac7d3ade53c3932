package io.fairledger.security;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

import io.fairledger.core.model.TenantPath;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonString;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Which tenants the caller may see. An admin sees every tenant; anybody else sees the subtrees named in the token's
 * {@value #CLAIM} claim, each value {@code cluster/tenant-path} (the Keycloak realm maps it from the
 * {@code fairledger_tenants} attribute of the caller's groups), e.g. {@code demo-yarn/root.a}.
 */
@RequestScoped
public class TenantScope {

    /** The token claim listing the caller's tenants. */
    public static final String CLAIM = "fairledger_tenants";

    @Inject
    SecurityIdentity identity;

    /** True for callers who see every tenant's grant and the cluster aggregates: admins and resource managers. */
    public boolean isPrivileged() {
        return identity.hasRole(Roles.ADMIN) || identity.hasRole(Roles.RESOURCE_MANAGER);
    }

    /** True when the caller may see {@code tenantPath} of {@code cluster}: an admin, or it lies in a claimed subtree. */
    public boolean maySee(String cluster, String tenantPath) {
        if (identity.hasRole(Roles.ADMIN)) {
            return true;
        }
        TenantPath wanted;
        try {
            wanted = TenantPath.parse(tenantPath);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (String own : tenants(cluster)) {
            if (wanted.isWithin(TenantPath.parse(own))) {
                return true;
            }
        }
        return false;
    }

    /** The subtrees of {@code cluster} the token names (an admin's token may name none: admins see all anyway). */
    public Set<String> tenants(String cluster) {
        Set<String> out = new LinkedHashSet<>();
        String prefix = cluster + "/";
        for (String value : claimed()) {
            if (value.startsWith(prefix) && value.length() > prefix.length()) {
                out.add(value.substring(prefix.length()));
            }
        }
        return out;
    }

    private Collection<String> claimed() {
        if (!(identity.getPrincipal() instanceof JsonWebToken jwt) || !jwt.containsClaim(CLAIM)) {
            return Set.of();
        }
        Object claim = jwt.getClaim(CLAIM);
        Set<String> out = new LinkedHashSet<>();
        if (claim instanceof Collection<?> values) {
            for (Object v : values) {
                out.add(v instanceof JsonString s ? s.getString() : String.valueOf(v));
            }
        } else if (claim != null) {
            out.add(claim instanceof JsonString s ? s.getString() : String.valueOf(claim));
        }
        return out;
    }
}
