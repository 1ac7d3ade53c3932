package io.fairledger.integrations.bridgetests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FSParentQueue;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fairledger.integrations.common.ClientCredentialsToken;
import io.fairledger.integrations.common.GrantsAge;
import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerGrantsPolicy;
import io.fairledger.integrations.yarn.GrantsClient;
import io.fairledger.testsupport.KeycloakDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * The YARN bridge's credentials against a real Keycloak whose realm makes access tokens last 10 s, and a server that
 * requires them: the scheduling policy runs on a MiniYARNCluster for 60 s, with applications in both queues, and orders
 * by the grants throughout. The bridge's client ({@code yarn-bridge} of src/main/keycloak/fairledger-realm.json, its
 * secret in a file) renews its token before each one expires: no poll ends in a 401, the grants' age never passes their
 * validity, and no decision of the policy falls back to YARN's fair share order.
 * <p>
 * The realm's token lifespan is set through Keycloak's admin API, as the master realm's admin of
 * {@code KC_BOOTSTRAP_ADMIN_USERNAME} and {@code KC_BOOTSTRAP_ADMIN_PASSWORD} (set for the tests' local Keycloak by
 * the pom; give them for a Keycloak of {@code FAIRLEDGER_TEST_KEYCLOAK_URL}).
 */
class YarnBridgeCredentialsIT {

    private static final String CLUSTER = "it-yarn-tokens";
    private static final int TOKEN_SECONDS = 10;
    private static final long RUN_MILLIS = 60_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static RealDependency.Running keycloak;
    private static ServerStack stack;
    private static String realm;

    @BeforeAll
    static void start() throws Exception {
        keycloak = KeycloakDependency.start();
        realm = keycloak.config().get("quarkus.oidc.auth-server-url");
        shortenTokenLifespan(realm, TOKEN_SECONDS);
        stack = ServerStack.start("fairledger-yarn-tokens-it", Map.of("QUARKUS_OIDC_AUTH_SERVER_URL", realm));
    }

    @AfterAll
    static void stop() {
        ServerStack.closeAll(stack, keycloak);
    }

    @Test
    void thePolicyFollowsTheGrantsForAMinuteOfTenSecondTokens() throws Exception {
        JsonNode issued = JSON.readTree(Http.expect(200, Http.form(realm + "/protocol/openid-connect/token",
                "grant_type=client_credentials&client_id=yarn-bridge&client_secret=change-me-yarn-bridge")));
        // Keycloak counts expires_in from the instant it answers, so a token issued late in a second says one less
        assertThat(issued.get("expires_in").asInt()).as("the realm's access token lifespan")
                .isBetween(TOKEN_SECONDS - 1, TOKEN_SECONDS);
        stack.server().register(CLUSTER, "YARN", YarnBridgeIT.settings(Instant.now().minus(1, ChronoUnit.HOURS)),
                () -> userToken("alice"));
        assertThat(Http.send("GET", grantsUrl(), null).statusCode()).as("the server requires a token").isEqualTo(401);

        Path secret = stack.dir().resolve("yarn-bridge.secret");
        Files.writeString(secret, "change-me-yarn-bridge\n");
        Map<String, String> keys = new HashMap<>(Map.of(BridgeConfig.CLUSTER, CLUSTER, BridgeConfig.BOOTSTRAP,
                stack.bootstrap(), GrantsClient.URL, stack.server().baseUrl(),
                GrantsClient.POLL_MS, "1000"));
        keys.put(GrantsClient.CREDENTIALS_PREFIX + "client-id", "yarn-bridge");
        keys.put(GrantsClient.CREDENTIALS_PREFIX + "issuer", realm);
        keys.put(GrantsClient.CREDENTIALS_PREFIX + "client-secret-file", secret.toString());
        try (MiniYarn yarn = new MiniYarn("fairledger-tokens-it", keys,
                YarnBridgeIT.allocations(FairledgerGrantsPolicy.class.getName()), stack.dir())) {
            FSParentQueue root = yarn.scheduler().getQueueManager().getParentQueue("root", false);
            FairledgerGrantsPolicy policy = (FairledgerGrantsPolicy) root.getPolicy();
            GrantsClient client = GrantsClient.installed();
            ApplicationId warmUp = yarn.submit("root.bursty", 2, 512, 1, 2);
            Awaitility.await("warm-up finished").atMost(180, TimeUnit.SECONDS).until(() -> yarn.finished(warmUp));
            List<String> expected = List.of("root.steady", "root.bursty");
            Awaitility.await("grants serve root.steady first").atMost(120, TimeUnit.SECONDS)
                    .pollInterval(500, TimeUnit.MILLISECONDS)
                    .untilAsserted(() -> assertThat(grantOrder()).isEqualTo(expected));
            Awaitility.await("the policy orders by the grants").atMost(60, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(YarnBridgeIT.sorted(root, policy.getComparator()))
                            .isEqualTo(expected));

            ClientCredentialsToken tokens = (ClientCredentialsToken) client.credentials();
            long tokensBefore = tokens.issued();
            long byGrantsBefore = policy.decisionsByGrants();
            long byFairShareBefore = policy.decisionsByFairShare();
            List<ApplicationId> apps = new ArrayList<>();
            List<Long> ages = new ArrayList<>();
            GrantsAge age = client.age();
            long start = System.currentTimeMillis();
            while (System.currentTimeMillis() - start < RUN_MILLIS) {
                if (apps.isEmpty() || yarn.finished(apps.get(apps.size() - 1))) {
                    // both queues keep asking, so the Fair Scheduler compares them at every node heartbeat
                    apps.add(yarn.submit("root.steady", 2, 512, 1, 8));
                    apps.add(yarn.submit("root.bursty", 2, 512, 1, 8));
                }
                long sampled = age.ageMillis();
                ages.add(sampled);
                assertThat(sampled).as("grants age after %d ms", System.currentTimeMillis() - start)
                        .isLessThanOrEqualTo(age.validityMillis());
                Thread.sleep(1_000);
            }
            long tokensUsed = tokens.issued() - tokensBefore;
            System.out.println("[fairledger-integrations] tokens: " + TOKEN_SECONDS + " s lifespan, " + tokensUsed
                    + " issued in " + RUN_MILLIS / 1000
                    + " s; decisions by the grants " + (policy.decisionsByGrants() - byGrantsBefore)
                    + ", by fair share " + (policy.decisionsByFairShare() - byFairShareBefore) + "; grants ages (ms) "
                    + ages + ", validity " + age.validityMillis());

            assertThat(client.unauthorized()).as("polls ending in 401").isZero();
            assertThat(tokensUsed).as("a token lasts 10 s: a minute of grants needs at least six")
                    .isGreaterThanOrEqualTo(RUN_MILLIS / 1000 / TOKEN_SECONDS);
            assertThat(policy.decisionsByFairShare()).as("decisions that fell back to fair share")
                    .isEqualTo(byFairShareBefore);
            assertThat(policy.decisionsByGrants()).as("decisions by the grants").isGreaterThan(byGrantsBefore);
            Awaitility.await("the policy still orders by the grants").atMost(30, TimeUnit.SECONDS)
                    .untilAsserted(() -> assertThat(YarnBridgeIT.sorted(root, policy.getComparator()))
                            .isEqualTo(grantOrder()));
            assertMetric(age);

            for (ApplicationId id : apps) {
                Awaitility.await(id + " finished").atMost(180, TimeUnit.SECONDS).until(() -> yarn.finished(id));
                assertThat(yarn.report(id).getFinalApplicationStatus()).as(id.toString())
                        .isEqualTo(FinalApplicationStatus.SUCCEEDED);
            }
        }
    }

    /** The ResourceManager's metrics system serves the age (over JMX here; /prom and sinks read the same source). */
    private static void assertMetric(GrantsAge age) throws Exception {
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        Set<ObjectName> names = jmx.queryNames(new ObjectName("Hadoop:name=FairledgerGrants,*"), null);
        assertThat(names).as("the metrics source's MBean").hasSize(1);
        ObjectName name = names.iterator().next();
        assertThat(jmx.getAttribute(name, "tag.Cluster")).isEqualTo(CLUSTER);
        double seconds = ((Number) jmx.getAttribute(name, "BridgeGrantsAgeSeconds")).doubleValue();
        assertThat(seconds).isBetween(0.0, age.validityMillis() / 1000.0);
        assertThat(((Number) jmx.getAttribute(name, "BridgeGrantsValiditySeconds")).doubleValue())
                .isEqualTo(age.validityMillis() / 1000.0);
    }

    private static String grantsUrl() {
        return stack.server().baseUrl() + "/api/v1/clusters/" + CLUSTER + "/grants";
    }

    /** The children of root in the order of the server's grants, as an admin asks them (a token lasts 10 s). */
    private static List<String> grantOrder() throws Exception {
        JsonNode grants = JSON.readTree(Http.expect(200, Http.send("GET", grantsUrl(), null, userToken("alice"))));
        List<String> order = new ArrayList<>();
        for (JsonNode level : grants.get("levels")) {
            if (level.get("parent").asText().equals("root")) {
                level.get("grants").forEach(g -> order.add(g.get("tenant").asText()));
            }
        }
        return order;
    }

    /** A realm user's token (password grant through fairledger-cli; the realm's test passwords). */
    private static String userToken(String user) {
        String answer = Http.expect(200, Http.form(realm + "/protocol/openid-connect/token",
                "grant_type=password&client_id=fairledger-cli&username=" + user + "&password=" + user + "-password"));
        try {
            return JSON.readTree(answer).get("access_token").asText();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sets the realm's access token lifespan through Keycloak's admin API, as the master realm's admin. */
    private static void shortenTokenLifespan(String realmUrl, int seconds) throws Exception {
        String base = realmUrl.substring(0, realmUrl.indexOf("/realms/"));
        String form = "grant_type=password&client_id=admin-cli&username="
                + System.getenv().getOrDefault("KC_BOOTSTRAP_ADMIN_USERNAME", "admin") + "&password="
                + System.getenv().getOrDefault("KC_BOOTSTRAP_ADMIN_PASSWORD", "admin");
        String adminToken = JSON.readTree(Http.expect(200,
                Http.form(base + "/realms/master/protocol/openid-connect/token", form))).get("access_token")
                .asText();
        Http.expect(204, Http.send("PUT", base + "/admin/realms/" + KeycloakDependency.REALM,
                "{\"accessTokenLifespan\":" + seconds + "}", adminToken));
    }
}
