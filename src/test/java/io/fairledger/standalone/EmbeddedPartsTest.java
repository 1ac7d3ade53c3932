package io.fairledger.standalone;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;

import org.junit.jupiter.api.Test;

class EmbeddedPartsTest {

    private static final String DB = "jdbc:postgresql://db:5432/fairledger";
    private static final String KAFKA = "kafka:9092";

    @Test
    void theProductionBuildNamesEveryAddressItNeeds() {
        assertThat(EmbeddedParts.missing(new StartupSettings(null, null, null, null), name -> false))
                .startsWith("this is the production build, which embeds no PostgreSQL or Kafka broker, and "
                        + "QUARKUS_DATASOURCE_JDBC_URL (PostgreSQL) and KAFKA_BOOTSTRAP_SERVERS (Kafka) are not set.")
                .contains("./mvnw -Pstandalone -DskipTests package");
        assertThat(EmbeddedParts.missing(new StartupSettings(DB, null, null, null), name -> false))
                .contains("and KAFKA_BOOTSTRAP_SERVERS (Kafka) is not set.").doesNotContain("QUARKUS_DATASOURCE");
        assertThat(EmbeddedParts.missing(new StartupSettings(null, KAFKA, null, null), name -> false))
                .contains("and QUARKUS_DATASOURCE_JDBC_URL (PostgreSQL) is not set.").doesNotContain("KAFKA_BOOT");
    }

    @Test
    void externalAddressesNeedNothingEmbedded() {
        assertThat(EmbeddedParts.missing(new StartupSettings(DB, KAFKA, null, null), name -> false)).isNull();
    }

    @Test
    void onlyWhatIsPackagedMayBeEmbedded() {
        Set<String> onlyPostgres = Set.of(EmbeddedParts.POSTGRES_CLASS);
        assertThat(EmbeddedParts.missing(new StartupSettings(null, KAFKA, null, null), onlyPostgres::contains))
                .isNull();
        assertThat(EmbeddedParts.missing(new StartupSettings(null, null, null, null), onlyPostgres::contains))
                .contains("KAFKA_BOOTSTRAP_SERVERS (Kafka) is not set").doesNotContain("QUARKUS_DATASOURCE");
    }

    @Test
    void theTestClasspathCarriesBothAsTheStandaloneBuildDoes() {
        // the real class look-up: both are on the test classpath (scope provided), as in target/standalone-app
        assertThat(EmbeddedParts.missing(new StartupSettings(null, null, null, null))).isNull();
    }
}
