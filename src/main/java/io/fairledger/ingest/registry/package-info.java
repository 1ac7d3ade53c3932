/**
 * The schema registry's REST client (Apicurio's API or a Confluent-compatible one) and the consumer's decoder built
 * with it.
 */
package io.fairledger.ingest.registry;
