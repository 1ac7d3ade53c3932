package io.fairledger.tenancy;

import io.fairledger.core.model.TenantPath;

/** The kind of resource manager a cluster is, which fixes how its tenant paths are written. */
public enum ResourceManagerKind {
    /** YARN queues: {@code root.analytics.etl}. */
    YARN('.'),
    /** Mesos roles: {@code analytics/etl}. */
    MESOS('/');

    private final char separator;

    ResourceManagerKind(char separator) {
        this.separator = separator;
    }

    public char separator() {
        return separator;
    }

    /** The tenant-path rules of this kind of cluster. */
    public TenantPath.Syntax pathSyntax() {
        return TenantPath.Syntax.valueOf(name());
    }
}
