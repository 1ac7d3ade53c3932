package io.fairledger.standalone;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Whether this artifact carries what standalone mode embeds. Only the standalone build ({@code ./mvnw -Pstandalone
 * package}, the one {@code ./fairledger} runs) packages the embedded PostgreSQL and Kafka broker; the production
 * artifact ({@code target/quarkus-app}, the image, the chart) does not, so there every dependency needs an address.
 */
public final class EmbeddedParts {

    static final String POSTGRES_CLASS = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";
    static final String KAFKA_CLASS = "kafka.server.KafkaRaftServer";

    private EmbeddedParts() {
    }

    /** Why these settings cannot run on this artifact (a dependency to embed that it lacks), or null. */
    public static String missing(StartupSettings settings) {
        return missing(settings, EmbeddedParts::packaged);
    }

    static String missing(StartupSettings settings, Predicate<String> packaged) {
        List<String> unset = new ArrayList<>();
        if (settings.jdbcUrl() == null && !packaged.test(POSTGRES_CLASS)) {
            unset.add("QUARKUS_DATASOURCE_JDBC_URL (PostgreSQL)");
        }
        if (settings.kafkaBootstrapServers() == null && !packaged.test(KAFKA_CLASS)) {
            unset.add("KAFKA_BOOTSTRAP_SERVERS (Kafka)");
        }
        if (unset.isEmpty()) {
            return null;
        }
        return "this is the production build, which embeds no PostgreSQL or Kafka broker, and "
                + String.join(" and ", unset) + (unset.size() == 1 ? " is" : " are") + " not set. Point the server "
                + "at your PostgreSQL and Kafka (docs/configuration.md), or run standalone mode from the standalone "
                + "build: ./fairledger serve builds and runs it (by hand: ./mvnw -Pstandalone -DskipTests package, "
                + "then java -jar target/standalone-app/quarkus-run.jar serve).";
    }

    private static boolean packaged(String className) {
        try {
            Class.forName(className, false, EmbeddedParts.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
