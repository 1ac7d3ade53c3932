package io.fairledger.security;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;

import io.quarkus.security.identity.SecurityIdentity;
import org.eclipse.microprofile.jwt.JsonWebToken;

import io.fairledger.core.model.TenantPath;

/**
 * Which tenants of which cluster the caller may see. Tenants get their ids from the access-token claim
 * {@value #CLAIM} (Keycloak maps the {@code fairledger_tenants} user or group attribute into it, see
 * {@code src/main/keycloak/fairledger-realm.json}); each value is {@code cluster/tenantPath}, e.g.
 * {@code demo-yarn/root.a} or, for a Mesos role, {@code demo-mesos/analytics/etl} (the cluster id is up to the first
 * {@code /}). A tenant sees its own subtree: {@code root.a} sees {@code root.a} and {@code root.a.etl}, not
 * {@code root.ab}. An admin sees everything ({@link #seesAll()}); anyone else without the claim sees nothing.
 *
 * <p>
 * Built per request with {@link #of(SecurityIdentity)}; immutable, so it can also be built from plain values in tests
 * with {@link #of(boolean, Collection)}.
 */
public final class TenantScope {

    /** The access-token claim that lists the caller's tenants. */
    public static final String CLAIM = "fairledger_tenants";

    private final boolean all;
    private final List<String> grants;

    private TenantScope(boolean all, List<String> grants) {
        this.all = all;
        this.grants = grants;
    }

    /** The scope of the caller: everything for the {@link Roles#ADMIN} role, else the tenants of the token claim. */
    public static TenantScope of(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous()) {
            return new TenantScope(false, List.of());
        }
        return of(identity.hasRole(Roles.ADMIN), claimValues(identity));
    }

    /** A scope from plain values: {@code admin} sees all; {@code claimValues} are {@code cluster/tenantPath} strings. */
    public static TenantScope of(boolean admin, Collection<String> claimValues) {
        List<String> grants = new ArrayList<>();
        for (String value : claimValues) {
            if (value != null && value.strip().indexOf('/') > 0) {
                grants.add(value.strip());
            }
        }
        return new TenantScope(admin, List.copyOf(grants));
    }

    /** True for an admin: every tenant of every cluster. */
    public boolean seesAll() {
        return all;
    }

    /** May the caller see {@code tenantPath} of {@code cluster}? True when it is in the subtree of a granted tenant. */
    public boolean maySee(String cluster, String tenantPath) {
        if (all) {
            return true;
        }
        if (cluster == null || tenantPath == null || tenantPath.isEmpty()) {
            return false;
        }
        TenantPath wanted;
        try {
            wanted = TenantPath.parse(tenantPath);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (String granted : tenants(cluster)) {
            if (wanted.isWithin(TenantPath.parse(granted))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The tenant paths of {@code cluster} the claim grants (each with its subtree); empty for an admin, who is not
     * limited to listed tenants (see {@link #seesAll()}).
     */
    public Set<String> tenants(String cluster) {
        Set<String> out = new LinkedHashSet<>();
        String prefix = cluster + "/";
        for (String grant : grants) {
            if (grant.startsWith(prefix) && grant.length() > prefix.length()) {
                out.add(grant.substring(prefix.length()));
            }
        }
        return Collections.unmodifiableSet(out);
    }

    private static List<String> claimValues(SecurityIdentity identity) {
        Object claim = null;
        if (identity.getPrincipal() instanceof JsonWebToken token) {
            claim = token.getClaim(CLAIM);
        }
        if (claim == null) {
            claim = identity.getAttribute(CLAIM);
        }
        List<String> values = new ArrayList<>();
        if (claim instanceof JsonArray array) {
            for (JsonValue v : array) {
                if (v instanceof JsonString s) {
                    values.add(s.getString());
                }
            }
        } else if (claim instanceof JsonString s) {
            values.add(s.getString());
        } else if (claim instanceof Collection<?> collection) {
            for (Object o : collection) {
                values.add(o instanceof JsonString s ? s.getString() : String.valueOf(o));
            }
        } else if (claim instanceof String s) {
            values.add(s);
        }
        return values;
    }
}
