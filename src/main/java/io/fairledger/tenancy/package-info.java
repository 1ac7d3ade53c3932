/**
 * Registered clusters and their tenant trees (tables {@code cluster} and {@code tenant}) and the one service every
 * configuration change goes through, from the admin API or from Kafka registrations.
 */
package io.fairledger.tenancy;
