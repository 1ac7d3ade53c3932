package io.fairledger.integrations.yarn;

import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsException;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.lib.Interns;

import io.fairledger.integrations.common.GrantsAge;

/**
 * The age of the grants the policy follows, as a source of Hadoop's metrics system, which the ResourceManager already
 * runs: it is served with the ResourceManager's other metrics on {@code /jmx} ({@code Hadoop:service=ResourceManager,
 * name=FairledgerGrants}), on {@code /prom} when {@code hadoop.prometheus.endpoint.enabled} is true (as
 * {@code fairledger_bridge_grants_age_seconds} and {@code fairledger_bridge_grants_validity_seconds}, with a
 * {@code cluster} label), and to any configured metrics2 sink. Nothing is reported while no grants client is installed.
 */
final class GrantsMetrics implements MetricsSource {

    static final String SOURCE = "FairledgerGrants";
    /** The record name: Hadoop's Prometheus sink prefixes every metric name with it. */
    static final String RECORD = "Fairledger";
    static final MetricsInfo AGE = Interns.info("BridgeGrantsAgeSeconds",
            "Seconds since fairledger last confirmed the grants the scheduling policy follows");
    static final MetricsInfo VALIDITY = Interns.info("BridgeGrantsValiditySeconds",
            "Seconds the grants are valid after they were confirmed: the server's interval plus one poll interval");
    static final MetricsInfo CLUSTER = Interns.info("Cluster", "fairledger's cluster id");

    /** Registers the source once per JVM (a ResourceManager started again in the same JVM finds it there). */
    static synchronized void register() {
        MetricsSystem metrics = DefaultMetricsSystem.instance();
        if (metrics.getSource(SOURCE) != null) {
            return;
        }
        try {
            metrics.register(SOURCE, "fairledger grants freshness", new GrantsMetrics());
        } catch (MetricsException alreadyThere) {
            // registered meanwhile under the same name by another ResourceManager of this JVM (tests)
        }
    }

    @Override
    public void getMetrics(MetricsCollector collector, boolean all) {
        GrantsClient client = GrantsClient.installed();
        if (client == null) {
            return;
        }
        GrantsAge age = client.age();
        collector.addRecord(RECORD).setContext("fairledger").tag(CLUSTER, client.cluster())
                .addGauge(AGE, age.ageMillis() / 1000.0).addGauge(VALIDITY, age.validityMillis() / 1000.0);
    }
}
