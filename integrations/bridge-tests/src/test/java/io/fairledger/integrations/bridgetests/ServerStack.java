package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.Processes;
import io.fairledger.testsupport.RealDependency;

/**
 * What every bridge test runs against: a real PostgreSQL, a real Kafka, the packaged server on them, and a scratch
 * directory for the test's own files. Closing stops them in reverse order and deletes the directory; a part that
 * fails to stop is reported and the others still stop.
 */
record ServerStack(RealDependency.Running postgres, RealDependency.Running kafka, FairledgerServer server, Path dir)
        implements
            AutoCloseable {

    /** Starts the three, the server with {@code serverEnv} added to its environment; nothing left running on failure. */
    static ServerStack start(String name, Map<String, String> serverEnv) {
        RealDependency.Running postgres = PostgresDependency.start();
        RealDependency.Running kafka = null;
        try {
            kafka = KafkaDependency.start();
            FairledgerServer server = FairledgerServer.start(postgres, kafka, serverEnv);
            return new ServerStack(postgres, kafka, server, Files.createTempDirectory(name));
        } catch (IOException | RuntimeException e) {
            closeAll(kafka, postgres);
            if (e instanceof IOException io) {
                throw new UncheckedIOException(io);
            }
            throw (RuntimeException) e;
        }
    }

    /** Kafka's bootstrap servers, for the bridges and producers. */
    String bootstrap() {
        return kafka.config().get("kafka.bootstrap.servers");
    }

    @Override
    public void close() {
        closeAll(server, kafka, postgres);
        Processes.deleteTree(dir);
    }

    /** Closes each of {@code parts} that is not null, in order, going on past one that fails. */
    static void closeAll(AutoCloseable... parts) {
        for (AutoCloseable part : parts) {
            try {
                if (part != null) {
                    part.close();
                }
            } catch (Exception e) {
                System.out.println("[fairledger-integrations] cannot stop " + part + ": " + e);
            }
        }
    }
}
