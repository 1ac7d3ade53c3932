/**
 * The subcommands of the one artifact (picocli): {@code serve} starts the server, {@code scenario}, {@code simulate}
 * and {@code account} run the core offline, {@code replay} and {@code dlq} talk to Kafka, {@code report} and {@code
 * shares} ask a running server.
 */
package io.fairledger.cli;
