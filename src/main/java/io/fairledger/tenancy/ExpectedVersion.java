package io.fairledger.tenancy;

import java.util.List;

/**
 * The configuration versions ({@link TenancyService#configurationTag}) a change is made on, as an {@code If-Match}
 * header names them: the change is refused when the cluster's version is none of them, because someone changed the
 * configuration since the caller read it.
 *
 * @param versions the versions allowed; null for any (no {@code If-Match}, or {@code If-Match: *})
 */
public record ExpectedVersion(List<String> versions) {

    /** Any version: the change is made whatever changed before it. */
    public static final ExpectedVersion ANY = new ExpectedVersion(null);

    /** Whether a change may be made on {@code version}. */
    boolean allows(String version) {
        return versions == null || versions.contains(version);
    }
}
