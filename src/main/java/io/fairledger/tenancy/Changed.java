package io.fairledger.tenancy;

/**
 * What a configuration change stored, and the cluster's configuration version ({@link TenancyService#configurationTag})
 * right after it, read in the change's transaction.
 */
public record Changed<T>(T value, String version) {
}
