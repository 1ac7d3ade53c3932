/**
 * Standalone mode: the embedded PostgreSQL and KRaft broker for whatever has no external address, the data directory's
 * lock, the settings filled in before Quarkus boots, and production mode's check that every external dependency
 * answers.
 */
package io.fairledger.standalone;
