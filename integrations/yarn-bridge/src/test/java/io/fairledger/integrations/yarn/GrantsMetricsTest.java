package io.fairledger.integrations.yarn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.sink.PrometheusMetricsSink;
import org.junit.jupiter.api.Test;

import io.fairledger.integrations.common.BearerTokens;
import io.fairledger.integrations.common.ClientCredentialsToken;

class GrantsMetricsTest {

    @Test
    void hadoopsPrometheusEndpointNamesTheMetricsAsDocsMetricsMdSays() {
        PrometheusMetricsSink sink = new PrometheusMetricsSink();
        assertThat(sink.prometheusName(GrantsMetrics.RECORD, GrantsMetrics.AGE.name()))
                .isEqualTo("fairledger_bridge_grants_age_seconds");
        assertThat(sink.prometheusName(GrantsMetrics.RECORD, GrantsMetrics.VALIDITY.name()))
                .isEqualTo("fairledger_bridge_grants_validity_seconds");
    }

    @Test
    void credentialsComeFromTheGrantsKeysAndTheRemovedStaticTokenKeyIsRefused() {
        Configuration conf = new Configuration(false);
        conf.set(GrantsClient.CREDENTIALS_PREFIX + "client-id", "yarn-bridge");
        conf.set(GrantsClient.CREDENTIALS_PREFIX + "issuer", "http://keycloak:8080/realms/fairledger");
        assertThat(GrantsClient.credentials(conf, Map.of(BearerTokens.SECRET_ENV, "s")))
                .isInstanceOf(ClientCredentialsToken.class);
        conf.set("fairledger.grants.token", "eyJ...");
        assertThatThrownBy(() -> GrantsClient.credentials(conf, Map.of(BearerTokens.SECRET_ENV, "s")))
                .hasMessageContaining("fairledger.grants.token is no longer read")
                .hasMessageContaining("fairledger.grants.client-id").satisfies(e -> assertThat(e.getMessage())
                        .doesNotContain("eyJ"));
    }
}
