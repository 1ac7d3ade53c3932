package io.fairledger.it;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;

import io.fairledger.testsupport.KafkaDependency;
import io.fairledger.testsupport.KeycloakDependency;
import io.fairledger.testsupport.PostgresDependency;
import io.fairledger.testsupport.RealDependency;

/**
 * The portal in a real browser (Debian's headless chromium through chromium-driver) against the packaged server, a
 * real Keycloak, PostgreSQL and Kafka fed with container events: each realm user signs in with the
 * authorization-code flow; a tenant sees its own numbers equal to the API's and downloads its statement, is refused
 * the other tenant's page with none of its numbers in the HTML, and signs out; an admin changes a weight through the
 * what-if preview and finds it in the audit trail; a login without a role gets a readable refusal. Screenshots of the
 * main pages go to target/screenshots (docs/portal/ with -Dfairledger.screenshots=../docs/portal).
 */
class PortalIT {

    private static final String CLUSTER = "demo-yarn";
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static RealDependency.Running postgres;
    private static RealDependency.Running kafka;
    private static RealDependency.Running keycloak;
    private static ServerProcess server;
    private static Tokens tokens;

    @BeforeAll
    static void start() throws Exception {
        postgres = PostgresDependency.start();
        kafka = KafkaDependency.start();
        keycloak = KeycloakDependency.shared();
        Map<String, String> env = ServerProcess.environment(postgres, kafka);
        env.put("QUARKUS_OIDC_AUTH_SERVER_URL", keycloak.config().get("quarkus.oidc.auth-server-url"));
        server = ServerProcess.start(env, "serve");
        RestAssured.baseURI = server.baseUrl();
        tokens = new Tokens(keycloak.config().get("quarkus.oidc.auth-server-url"));
        feed();
    }

    @AfterAll
    static void stop() throws InterruptedException {
        try {
            if (server != null) {
                assertThat(server.terminate()).as("exit code after SIGTERM").isIn(0, 143);
            }
        } finally {
            for (RealDependency.Running dependency : new RealDependency.Running[]{keycloak, kafka, postgres}) {
                if (dependency != null) {
                    dependency.close();
                }
            }
        }
    }

    @Test
    void aTenantSeesItsOwnNumbersDownloadsItsStatementIsRefusedTheOtherAndSignsOut() throws Exception {
        String anna = tokens.user("anna");
        JsonNode api = get(anna, "/api/v1/clusters/" + CLUSTER + "/tenants/root.a");
        JsonNode aggregates = get(anna, "/api/v1/clusters/" + CLUSTER + "/fairness");
        try (Browser browser = Browser.open()) {
            browser.signIn(server.baseUrl() + "/portal", "anna");
            assertThat(browser.byId("viewer").getText()).isEqualTo("anna");
            List<String> links = browser.driver.findElements(By.className("tenant-link")).stream()
                    .map(WebElement::getText).toList();
            assertThat(links).as("anna's login covers root.a only").containsExactly("root.a");
            browser.screenshot("home");
            browser.find(By.linkText("root.a")).click();

            assertThat(browser.byId("tenant-id").getText()).isEqualTo("root.a");
            assertThat(decimal(browser, "charge")).isEqualByComparingTo(api.at("/openPeriod/chargeToDate")
                    .decimalValue());
            assertThat(decimal(browser, "balance")).isEqualByComparingTo(api.at("/openPeriod/lendingBalance")
                    .decimalValue());
            assertThat(number(browser, "actual")).isEqualTo(api.at("/openPeriod/actual").doubleValue());
            assertThat(number(browser, "entitled")).isEqualTo(api.at("/openPeriod/entitled").doubleValue());
            assertThat(number(browser, "rho")).isEqualTo(api.at("/openPeriod/rho").doubleValue());
            assertThat(number(browser, "psi")).isEqualTo(aggregates.get("sharingBenefit").doubleValue());
            assertThat(number(browser, "omega")).isEqualTo(aggregates.get("sharingLoss").doubleValue());
            assertThat(number(browser, "jain")).isEqualTo(aggregates.get("jainFairness").doubleValue());
            assertThat(browser.byId("grant-words").getText()).contains("root.a may hold");
            assertThat(browser.html()).contains("Job job-a1").doesNotContain("job-b1");
            Awaitility.await().atMost(30, TimeUnit.SECONDS).until(
                    () -> "true".equals(browser.byId("chart").getAttribute("data-drawn")));
            browser.screenshot("tenant");
            ((JavascriptExecutor) browser.driver)
                    .executeScript("document.getElementById('history-h').scrollIntoView();");
            browser.screenshot("tenant-chart");

            browser.byId("download-csv").click();
            String csv = Files.readString(download(browser.downloads, ".csv"));
            assertThat(csv).isEqualTo(given().auth().oauth2(anna).accept("text/csv")
                    .get("/api/v1/clusters/" + CLUSTER + "/tenants/root.a/statements").then().statusCode(200)
                    .extract().asString());
            assertThat(csv.lines().skip(1)).isNotEmpty().allMatch(row -> row.contains(",root.a,"));
            browser.byId("download-json").click();
            assertThat(JSON.readTree(download(browser.downloads, ".json").toFile())).isEqualTo(JSON.readTree(
                    given().auth().oauth2(anna).accept(ContentType.JSON).get("/api/v1/clusters/" + CLUSTER
                            + "/tenants/root.a/statements").then().statusCode(200).extract().asString()));

            browser.width(375);
            ((JavascriptExecutor) browser.driver).executeScript("window.scrollTo(0, 0);");
            Object overflow = ((JavascriptExecutor) browser.driver).executeScript(
                    "return document.documentElement.scrollWidth - window.innerWidth;");
            assertThat(((Number) overflow).intValue()).as("no sideways scrolling at 375 px").isLessThanOrEqualTo(0);
            browser.screenshot("tenant-375px");
            browser.width(1280);

            browser.driver.get(server.baseUrl() + "/portal/clusters/" + CLUSTER + "/tenants/root.b");
            String refused = browser.html();
            assertThat(browser.byId("error-title").getText()).isEqualTo("403 Forbidden");
            assertThat(numbersOf(tokens.user("bert"), "root.b")).isNotEmpty()
                    .allSatisfy(n -> assertThat(refused).as("bert's number " + n + " on anna's refusal")
                            .doesNotContain(n));
            assertThat(refused).doesNotContain("Exception").doesNotContain("\tat ");
            browser.screenshot("refused");

            browser.byId("sign-out").click();
            assertThat(browser.byId("signed-out").getText()).isEqualTo("You are signed out");
            browser.driver.get(server.baseUrl() + "/portal");
            assertThat(browser.driver.findElements(By.id("kc-login"))).as("signed out: Keycloak asks again")
                    .isNotEmpty();
        }
    }

    @Test
    void theOtherTenantSeesOnlyItsOwn() throws Exception {
        JsonNode api = get(tokens.user("bert"), "/api/v1/clusters/" + CLUSTER + "/tenants/root.b");
        try (Browser browser = Browser.open()) {
            browser.signIn(server.baseUrl() + "/portal/clusters/" + CLUSTER + "/tenants/root.b", "bert");
            assertThat(browser.byId("tenant-id").getText()).as("back on the page asked for").isEqualTo("root.b");
            assertThat(decimal(browser, "charge")).isEqualByComparingTo(api.at("/openPeriod/chargeToDate")
                    .decimalValue());
            assertThat(number(browser, "actual")).isEqualTo(api.at("/openPeriod/actual").doubleValue());
            assertThat(browser.html()).contains("Job job-b1").doesNotContain("job-a1");
            browser.driver.get(server.baseUrl() + "/portal/admin");
            assertThat(browser.byId("error-title").getText()).isEqualTo("403 Forbidden");
        }
    }

    @Test
    void anAdminChangesAWeightThroughTheWhatIfPreviewAndTheAuditShowsIt() throws Exception {
        try (Browser browser = Browser.open()) {
            browser.signIn(server.baseUrl() + "/portal/admin", "alice");
            browser.find(By.linkText(CLUSTER)).click();
            assertThat(browser.byId("policy").getText()).startsWith("Policy justice"); // the cluster's page is there
            for (WebElement input : browser.driver.findElements(By.cssSelector("input:not([type=hidden])"))) {
                assertThat(browser.driver.findElements(By.cssSelector("label[for='" + input.getAttribute("id")
                        + "']"))).as("a label for " + input.getAttribute("id")).hasSize(1);
            }
            browser.screenshot("admin-cluster");
            WebElement weight = browser.find(By.cssSelector("input[name=weight][data-tenant='root.a']"));
            weight.clear();
            weight.sendKeys("3", Keys.ENTER); // submitted from the keyboard

            assertThat(browser.byId("proposal").getText()).contains("weight 3");
            assertThat(browser.driver.findElements(By.cssSelector(".compared"))).as("periods compared").isNotEmpty();
            assertThat(browser.driver.findElements(By.cssSelector(".changed"))).as("the change shows").isNotEmpty();
            browser.screenshot("what-if-preview");
            given().auth().oauth2(tokens.user("alice")).get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.a")
                    .then().statusCode(200).body("weight", equalTo(1.0f));
            browser.byId("apply").click();

            assertThat(browser.byId("notice").getText()).contains("root.a");
            given().auth().oauth2(tokens.user("alice")).get("/api/v1/admin/clusters/" + CLUSTER + "/tenants/root.a")
                    .then().statusCode(200).body("weight", equalTo(3.0f));
            browser.driver.get(server.baseUrl() + "/portal/admin");
            WebElement change = browser.byId("audit").findElement(By.cssSelector("tbody tr"));
            // what changed, member by member, not the two documents
            assertThat(change.getText()).contains("alice").contains("tenant root.a").contains("weight: ")
                    .contains("\u2192 3");
            browser.screenshot("admin-audit");
            browser.byId("sign-out").click();
            assertThat(browser.byId("signed-out").getText()).isEqualTo("You are signed out");
        }
    }

    @Test
    void aLoginWithoutARoleGetsAReadableRefusal() {
        try (Browser browser = Browser.open()) {
            browser.signIn(server.baseUrl() + "/portal", "victor");
            assertThat(browser.byId("error-title").getText()).isEqualTo("403 Forbidden");
            assertThat(browser.byId("error-detail").getText()).contains("neither the tenant nor the admin role");
        }
    }

    /** Registers demo-yarn (the realm's tenants root.a and root.b), feeds it containers and a job of each tenant. */
    private static void feed() throws Exception {
        String admin = tokens.user("alice");
        given().auth().oauth2(admin).contentType(ContentType.JSON)
                .body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\",\"name\":\"demo\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-22T00:00:00Z","capacity":{"vcores":8,"memoryMb":16384,"gpus":0},
                 "memory":{"mode":"FULL"},"period":{"length":"PT1H"},
                 "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"0.05","perGbHour":"0.01",
                 "perGpuHour":"0"}]},"tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":1}]}""")
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.config().get("kafka.bootstrap.servers")),
                new StringSerializer(), new StringSerializer())) {
            String[][] containers = {{"root.a", "1", "2", "00:10:00", "01:30:00"},
                    {"root.a", "2", "1", "00:40:00", "02:20:00"}, {"root.b", "3", "5", "00:20:00", "01:50:00"},
                    {"root.b", "4", "3", "01:05:00", "02:45:00"}};
            for (String[] c : containers) {
                producer.send(new ProducerRecord<>("fairledger.yarn.containers", CLUSTER,
                        container(c[0], c[1], Integer.parseInt(c[2]), c[3], c[4]))).get();
            }
        }
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given().auth().oauth2(admin)
                .get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                .body("asOf", equalTo("2026-11-22T02:45:00Z")));
        String manager = tokens.resourceManager();
        for (String[] job : new String[][]{{"job-a1", "root.a"}, {"job-b1", "root.b"}}) {
            given().auth().oauth2(manager).contentType(ContentType.JSON)
                    .body("{\"id\":\"%s\",\"tenant\":\"%s\",\"tasks\":4,\"deadlineSeconds\":3600,\"estimatedCpuSeconds\":600}"
                            .formatted(job[0], job[1]))
                    .post("/api/v1/clusters/" + CLUSTER + "/jobs").then().statusCode(201);
        }
    }

    private static String container(String queue, String n, int vcores, String from, String to) {
        String id = "container_1_0001_01_00000" + n;
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"2026-11-22T%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":%d,\"allocatedVcores\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\","
                + "\"createdTime\":\"2026-11-22T%sZ\",\"finishedTime\":\"2026-11-22T%sZ\"}")
                .formatted(id, CLUSTER, to, id, queue, 1024 * vcores, vcores, from, to);
    }

    /** Every number of {@code tenant}'s view and statements, as the API writes it and as the portal rounds it. */
    private static List<String> numbersOf(String token, String tenant) throws Exception {
        List<JsonNode> values = new ArrayList<>();
        collect(get(token, "/api/v1/clusters/" + CLUSTER + "/tenants/" + tenant).get("openPeriod"), values);
        for (JsonNode statement : get(token, "/api/v1/clusters/" + CLUSTER + "/tenants/" + tenant + "/statements")) {
            for (JsonNode line : statement.get("lines")) {
                collect(line, values);
            }
        }
        List<String> out = new ArrayList<>();
        for (JsonNode v : values) {
            BigDecimal d = v.decimalValue();
            if (d.signum() == 0) {
                continue;
            }
            for (String text : List.of(v.asText(), d.toPlainString(),
                    d.setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString())) {
                if (text.replaceAll("[^0-9]", "").length() >= 3 && !out.contains(text)) {
                    out.add(text);
                }
            }
        }
        return out;
    }

    private static void collect(JsonNode node, List<JsonNode> into) {
        for (Iterator<JsonNode> it = node.elements(); it.hasNext();) {
            JsonNode v = it.next();
            if (v.isNumber()) {
                into.add(v);
            }
        }
    }

    private static JsonNode get(String token, String path) throws Exception {
        return JSON.readTree(given().auth().oauth2(token).accept(ContentType.JSON).get(path).then().statusCode(200)
                .extract().asString());
    }

    private static BigDecimal decimal(Browser browser, String id) {
        return new BigDecimal(browser.byId(id).getAttribute("data-value"));
    }

    private static double number(Browser browser, String id) {
        return Double.parseDouble(browser.byId(id).getAttribute("data-value"));
    }

    /** The one file the browser has finished downloading with this extension. */
    private static Path download(Path dir, String extension) {
        return Awaitility.await().atMost(30, TimeUnit.SECONDS).until(() -> {
            try (Stream<Path> files = Files.list(dir)) {
                return files.filter(f -> f.toString().endsWith(extension)).findFirst();
            }
        }, Optional::isPresent).orElseThrow();
    }
}
