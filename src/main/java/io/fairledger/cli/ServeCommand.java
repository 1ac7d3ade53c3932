package io.fairledger.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.quarkus.runtime.Quarkus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import io.fairledger.standalone.EmbeddedParts;
import io.fairledger.standalone.EmbeddedPostgresServer.Durability;
import io.fairledger.standalone.ExternalDependencies;
import io.fairledger.standalone.ManagementPort;
import io.fairledger.standalone.StandaloneServices;
import io.fairledger.standalone.StandaloneStartupException;
import io.fairledger.standalone.StartupSettings;

/**
 * {@code fairledger serve}: starts the server. Whatever dependency has no address configured (PostgreSQL, Kafka) is
 * started embedded under {@code --data-dir}; without an OIDC server, loopback callers are trusted as admin and only a
 * loopback address may be bound. With every address configured this is production mode, and each dependency is
 * checked before the server boots so an unreachable one is named at once. Only the standalone build carries the
 * embedded PostgreSQL and broker; the production build refuses to start without their addresses.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Start the fairledger server (standalone when no external PostgreSQL/Kafka/OIDC is configured).")
public final class ServeCommand implements Callable<Integer> {

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Where standalone mode keeps PostgreSQL and Kafka data (default: $FAIRLEDGER_DATA_DIR, "
            + "else ~/.fairledger).")
    Path dataDir;

    @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "9092", description = "Port of the embedded Kafka broker on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--postgres-port", paramLabel = "PORT", defaultValue = "0", description = "Port of the embedded PostgreSQL on 127.0.0.1; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int postgresPort;

    @Option(names = "--management-port", paramLabel = "PORT", description = "Port of the management interface "
            + "(health and metrics); 0 picks a free one. Default: $QUARKUS_MANAGEMENT_PORT, else 9000, which standalone "
            + "mode moves to a free port (and prints) when it is taken.")
    Integer managementPort;

    @Option(names = "--unsafe-no-fsync", description = "Run the embedded PostgreSQL with fsync and synchronous_commit off: "
            + "faster, but an OS crash or power loss may lose recent data or corrupt the database (a process crash "
            + "loses nothing). For demos only; see docs/configuration.md.")
    boolean unsafeNoFsync;

    @Override
    public Integer call() {
        StartupSettings settings = StartupSettings.read();
        String problem = settings.refusal();
        if (problem == null) {
            problem = EmbeddedParts.missing(settings);
        }
        if (problem != null) {
            System.err.println("fairledger: " + problem);
            return 2;
        }
        boolean standalone = settings.jdbcUrl() == null || settings.kafkaBootstrapServers() == null;
        try {
            String notice = ManagementPort.settle(managementPort, standalone,
                    settings.kafkaBootstrapServers() == null ? kafkaPort : 0).notice();
            if (notice != null) {
                System.out.println("fairledger: " + notice);
            }
        } catch (StandaloneStartupException e) {
            System.err.println("fairledger: " + e.getMessage());
            return 1;
        }
        String unreachable = ExternalDependencies.firstUnreachable(settings);
        if (unreachable != null) {
            System.err.println("fairledger: " + unreachable);
            return 1;
        }
        Path dir = dataDir != null ? dataDir : StartupSettings.defaultDataDir();
        StandaloneServices services;
        try {
            services = StandaloneServices.start(settings, dir, postgresPort, kafkaPort,
                    unsafeNoFsync ? Durability.NO_FSYNC : Durability.FSYNC);
        } catch (StandaloneStartupException e) {
            System.err.println("fairledger: " + e.getMessage());
            return 1;
        }
        try (services) {
            int[] exit = {0};
            Quarkus.run(FairledgerApplication.class, (code, failure) -> {
                exit[0] = code;
                if (failure != null) {
                    // Quarkus hands the failure to this handler without logging it
                    System.err.println("fairledger: the server did not start: " + reason(failure));
                }
            });
            return exit[0];
        }
    }

    /** What went wrong at start: the innermost cause of {@code failure}, not Quarkus' wrapping of it. */
    static String reason(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() != null ? cause.getMessage() : cause.toString();
    }
}
