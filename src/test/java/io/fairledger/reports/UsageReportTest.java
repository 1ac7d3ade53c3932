package io.fairledger.reports;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URL;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.cli.ReportCommand;
import io.fairledger.cli.SharesCommand;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * The usage endpoint, the statements CSV and the {@code report} and {@code shares} commands against this test's
 * server (real PostgreSQL and Kafka; the test profile trusts loopback callers as admin). Every number of a report is
 * checked against the sum of the statements' lines of the same periods.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class UsageReportTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String CLUSTER = "usage-yarn";
    private static final String UNTIL = "2026-11-21T00:20:00Z";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @TestHTTPResource("/")
    URL server;

    @TestHTTPResource(value = "/metrics", management = true)
    URL metrics;

    @Test
    void usageOverAnyWindowIsTheSumOfTheStatementsLinesAndTheCommandsPrintIt() throws Exception {
        JsonNode statements = feed();
        assertThat(statements).as("four five-minute periods").hasSize(4);
        String usage = "/api/v1/clusters/" + CLUSTER + "/usage";

        // inside one period: that period, whole
        JsonNode inside = report(Map.of("from", "2026-11-21T00:06:00Z", "to", "2026-11-21T00:07:00Z"));
        assertThat(inside.get("from").asText()).isEqualTo("2026-11-21T00:05:00Z");
        assertThat(inside.get("to").asText()).isEqualTo("2026-11-21T00:10:00Z");
        assertThat(inside.get("currency").asText()).isEqualTo("EUR");
        assertThat(inside.get("buckets")).hasSize(1);
        assertSums(inside.get("buckets").get(0), List.of(statements.get(1)), "tenant");

        // across periods, one bucket per two periods, by tenant, parent and for the cluster
        for (String aggregate : List.of("tenant", "parent", "cluster")) {
            JsonNode across = report(Map.of("from", "2026-11-21T00:02:00Z", "to", UNTIL, "step", "PT10M",
                    "aggregate", aggregate));
            assertThat(across.get("buckets")).hasSize(2);
            assertSums(across.get("buckets").get(0), List.of(statements.get(0), statements.get(1)), aggregate);
            assertSums(across.get("buckets").get(1), List.of(statements.get(2), statements.get(3)), aggregate);
        }

        // outside every period: before the registration, nothing
        JsonNode outside = report(Map.of("from", "2026-11-20T22:00:00Z", "to", "2026-11-20T23:00:00Z"));
        assertThat(outside.get("buckets")).hasSize(1);
        assertThat(outside.get("buckets").get(0).get("rows")).isEmpty();
        assertThat(outside.get("buckets").get(0).get("periods")).isEmpty();

        for (Map<String, String> bad : List.of(Map.of("from", "yesterday"), Map.of("step", "PT7M"),
                Map.of("step", "P"), Map.of("aggregate", "queue"),
                Map.of("from", UNTIL, "to", "2026-11-21T00:05:00Z"), Map.of("from", "2000-01-01T00:00:00Z",
                        "step", "PT5M"))) {
            given().queryParams(bad).get(usage).then().statusCode(422).contentType("application/problem+json");
        }
        given().get("/api/v1/clusters/no-such-cluster/usage").then().statusCode(404)
                .contentType("application/problem+json");

        // the statements as CSV at ?format=csv: one row per line, in the cluster's currency
        String csv = given().queryParam("until", UNTIL).queryParam("format", "csv")
                .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200)
                .contentType(containsString("text/csv")).extract().asString();
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(csv))
                .getRecords();
        int lines = 0;
        for (JsonNode s : statements) {
            lines += s.get("lines").size();
        }
        assertThat(records).hasSize(lines);
        assertThat(records).allMatch(r -> r.get("currency").equals("EUR") && r.get("cluster").equals(CLUSTER));
        assertThat(new BigDecimal(records.get(0).get("charge")))
                .isEqualByComparingTo(statements.get(0).get("lines").get(0).get("charge").decimalValue());
        given().queryParam("format", "xml").get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then()
                .statusCode(422).contentType("application/problem+json");

        // fairledger report against this server: the same numbers, as a table, parsable and JSON
        Run parsable = run(new ReportCommand(), "--server", server.toString(), "--cluster", CLUSTER, "--from",
                "2026-11-21T00:02:00Z", "--to", UNTIL, "--step", "PT10M", "--parsable");
        assertThat(parsable.code()).as(parsable.err()).isZero();
        List<String> rows = parsable.out().lines().toList();
        assertThat(rows.get(0)).isEqualTo("start|end|group|actual_h|counted_h|entitled_h|rho|charge|currency");
        JsonNode expected = report(Map.of("from", "2026-11-21T00:02:00Z", "to", UNTIL, "step", "PT10M"));
        List<String> expectedRows = new ArrayList<>();
        for (JsonNode bucket : expected.get("buckets")) {
            for (JsonNode row : bucket.get("rows")) {
                expectedRows.add(String.join("|", bucket.get("start").asText(), bucket.get("end").asText(),
                        row.get("key").asText(), plain(row.get("actual")), plain(row.get("counted")),
                        plain(row.get("entitled"))));
            }
        }
        assertThat(rows.subList(1, rows.size()).stream()
                .map(r -> String.join("|", List.of(r.split("\\|")).subList(0, 6))).toList())
                .isEqualTo(expectedRows);
        Run json = run(new ReportCommand(), "--server", server.toString(), "--cluster", CLUSTER, "--from",
                "2026-11-21T00:02:00Z", "--to", UNTIL, "--step", "PT10M", "--json");
        assertThat(JSON.readTree(json.out()).get("buckets").toString()).as("the server's answer, re-indented")
                .isEqualTo(expected.get("buckets").toString());
        Run table = run(new ReportCommand(), "--server", server.toString(), "--cluster", CLUSTER, "--to", UNTIL);
        assertThat(table.code()).isZero();
        assertThat(table.out().lines().skip(1)).hasSize(3).allMatch(l -> l.contains(" root.q") && l.endsWith("EUR"));
        Run refused = run(new ReportCommand(), "--server", server.toString(), "--cluster", CLUSTER, "--step",
                "PT7M");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("422").contains("whole number of periods");

        // the money gauge names its currency
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS)
                .untilAsserted(() -> assertThat(given().get(metrics.toString()).then().statusCode(200).extract()
                        .asString()).contains("fairledger_tenant_charge{cluster=\"" + CLUSTER
                                + "\",currency=\"EUR\",tenant=\"root.q0\"}"));

        // fairledger shares: every tenant's weight, share, usage, rho, balance and grant, as the tenant views say;
        // the live view moves on with every grant interval, so the command and the read it is compared with are
        // compared until both saw the same one
        Awaitility.await().atMost(60, TimeUnit.SECONDS).pollInterval(1, TimeUnit.SECONDS).untilAsserted(() -> {
            JsonNode api = JSON.readTree(given().get("/api/v1/clusters/" + CLUSTER + "/shares").then()
                    .statusCode(200).extract().asString());
            Run shares = run(new SharesCommand(), "--server", server.toString(), "--cluster", CLUSTER, "--parsable");
            assertThat(shares.code()).as(shares.err()).isZero();
            List<String> shareRows = shares.out().lines().toList();
            assertThat(shareRows.get(0))
                    .isEqualTo(
                            "tenant|weight|norm_share|usage_h|rho|balance_h|grant_vcores|grant_memory_mb|grant_gpus");
            assertThat(shareRows).hasSize(1 + 3);
            for (int i = 0; i < 3; i++) {
                JsonNode t = api.get("tenants").get(i);
                String[] cells = shareRows.get(1 + i).split("\\|", -1);
                assertThat(cells).hasSize(9);
                assertThat(cells[0]).isEqualTo("root.q" + i);
                assertThat(Double.parseDouble(cells[1])).isEqualTo(t.get("weight").asDouble());
                assertThat(Double.parseDouble(cells[2])).isCloseTo(t.get("share").asDouble(),
                        org.assertj.core.data.Offset.offset(1e-6));
                assertThat(new BigDecimal(cells[3]))
                        .isEqualByComparingTo(t.get("openPeriod").get("actual").decimalValue());
                assertThat(new BigDecimal(cells[5]))
                        .isEqualByComparingTo(t.get("openPeriod").get("lendingBalance").decimalValue());
                assertThat(Double.parseDouble(cells[6])).isCloseTo(t.get("grant").get("vcores").asDouble(),
                        org.assertj.core.data.Offset.offset(1e-3));
                assertThat(Double.parseDouble(cells[7])).isCloseTo(t.get("grant").get("memoryMb").asDouble(),
                        org.assertj.core.data.Offset.offset(1e-3));
            }
        });

        // the usage report as CSV, of two clusters at once, accumulated and for one tenant
        JsonNode two = JSON.readTree(given().queryParam("cluster", CLUSTER, "usage-other").queryParam("to", UNTIL)
                .get("/api/v1/usage").then().statusCode(200).extract().asString());
        assertThat(two).hasSize(2);
        assertThat(two.get(0).get("cluster").asText()).isEqualTo(CLUSTER);
        assertThat(two.get(1).get("cluster").asText()).isEqualTo("usage-other");
        String sheet = given().queryParam("cluster", CLUSTER, "usage-other").queryParam("from", "2026-11-21T00:02:00Z")
                .queryParam("to", UNTIL).queryParam("step", "PT10M").queryParam("accumulate", "true")
                .queryParam("tenant", "root.q1").queryParam("format", "csv").get("/api/v1/usage").then()
                .statusCode(200).contentType(containsString("text/csv")).extract().asString();
        List<CSVRecord> usageRows = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(sheet))
                .getRecords();
        JsonNode whole = report(Map.of("from", "2026-11-21T00:02:00Z", "to", UNTIL, "tenant", "root.q1"));
        assertThat(whole.get("buckets")).hasSize(1);
        JsonNode q1 = whole.get("buckets").get(0).get("rows").get(0);
        assertThat(q1.get("key").asText()).isEqualTo("root.q1");
        assertThat(usageRows).as("one accumulated bucket, root.q1 only, in each cluster that has it").hasSize(1);
        CSVRecord r = usageRows.get(0);
        assertThat(r.get("cluster")).isEqualTo(CLUSTER);
        assertThat(r.get("group")).isEqualTo("root.q1");
        assertThat(r.get("start")).isEqualTo("2026-11-21T00:00:00Z");
        assertThat(r.get("end")).isEqualTo(UNTIL);
        assertThat(new BigDecimal(r.get("actual"))).isEqualByComparingTo(q1.get("actual").decimalValue());
        assertThat(new BigDecimal(r.get("charge"))).isEqualByComparingTo(q1.get("charge").decimalValue());
        assertThat(r.get("currency")).isEqualTo("EUR");
        JsonNode stepped = report(Map.of("from", "2026-11-21T00:02:00Z", "to", UNTIL, "step", "PT10M", "tenant",
                "root.q1"));
        BigDecimal summed = BigDecimal.ZERO;
        for (JsonNode bucket : stepped.get("buckets")) {
            for (JsonNode row : bucket.get("rows")) {
                assertThat(row.get("key").asText()).isEqualTo("root.q1");
                summed = summed.add(row.get("actual").decimalValue());
            }
        }
        assertThat(summed).as("accumulate is the sum of the steps").isEqualByComparingTo(r.get("actual"));
        for (Map<String, String> bad : List.of(Map.of("accumulate", "yes"), Map.of("tenant", "root..a"),
                Map.of("format", "xls"))) {
            given().queryParams(bad).get(usage).then().statusCode(422).contentType("application/problem+json");
        }
        given().get("/api/v1/usage").then().statusCode(422).contentType("application/problem+json");
        given().queryParam("cluster", CLUSTER, "no-such-cluster").get("/api/v1/usage").then().statusCode(404);
    }

    @Test
    void aCurrencyThatIsNotIso4217IsRefused() {
        given().contentType(ContentType.JSON).body("{\"id\":\"usage-bad-currency\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        for (String code : List.of("EURO", "eur", "ABC")) {
            given().contentType(ContentType.JSON).body(settings().replace("\"EUR\"", "\"" + code + "\""))
                    .put("/api/v1/admin/clusters/usage-bad-currency/ledger-settings").then().statusCode(422)
                    .contentType("application/problem+json").body("detail", containsString("ISO 4217"));
        }
        given().contentType(ContentType.JSON).body(settings().replace(",\"currency\":\"EUR\"", ""))
                .put("/api/v1/admin/clusters/usage-bad-currency/ledger-settings").then().statusCode(200);
        given().get("/api/v1/clusters/usage-bad-currency/usage").then().statusCode(200)
                .body("currency", equalTo("XXX"));
    }

    private static String settings() {
        return YarnWorkload.settings(START, 3).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT5M\"},\"allowedLateness\":\"PT1M\"")
                .replace("\"model\":\"USAGE\",", "\"model\":\"USAGE\",\"currency\":\"EUR\",");
    }

    /**
     * Registers the cluster (and a second one, usage-other, with settings and no events), publishes its events,
     * waits for the last and returns its statements until UNTIL.
     */
    private JsonNode feed() throws Exception {
        given().contentType(ContentType.JSON).body("{\"id\":\"usage-other\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings())
                .put("/api/v1/admin/clusters/usage-other/ledger-settings").then().statusCode(200);
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings())
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        List<String> lines = new ArrayList<>(YarnWorkload.lines(CLUSTER, START, 600, 3, 7));
        lines.add(YarnWorkload.last(CLUSTER, Instant.parse(UNTIL))); // the four periods up to UNTIL have ended
        EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
        long last = 0;
        for (String line : lines) {
            last = Math.max(last, JSON.readTree(line).get("eventTime").asLong());
        }
        String asOf = Instant.ofEpochMilli(last).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));
        // periods 0 to 2 are past their end plus the lateness: wait until the cluster's writer has closed them (a
        // closed period keeps the facts up to where it closed; later ones are adjustments), so the report reads
        // the same statements
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> assertThat(statementsUntil()).filteredOn(s -> s.get("state").asText()
                        .equals("closed")).hasSize(3));
        return statementsUntil();
    }

    private static JsonNode statementsUntil() throws Exception {
        return JSON.readTree(given().accept(ContentType.JSON).queryParam("until", UNTIL)
                .get("/api/v1/admin/clusters/" + CLUSTER + "/statements").then().statusCode(200).extract()
                .asString());
    }

    private static JsonNode report(Map<String, String> query) throws Exception {
        return JSON.readTree(given().queryParams(query).get("/api/v1/clusters/" + CLUSTER + "/usage").then()
                .statusCode(200).contentType(ContentType.JSON).extract().asString());
    }

    /** The bucket's periods are exactly those statements', and each row is the sum of their lines of its group. */
    private static void assertSums(JsonNode bucket, List<JsonNode> statements, String aggregate) {
        List<String> periods = new ArrayList<>();
        Map<String, BigDecimal[]> sums = new TreeMap<>();
        for (JsonNode s : statements) {
            periods.add(s.get("period").asText());
            for (JsonNode l : s.get("lines")) {
                String tenant = l.get("tenant").asText();
                String key = switch (aggregate) {
                    case "tenant" -> tenant;
                    case "parent" -> tenant.substring(0, tenant.lastIndexOf('.'));
                    default -> "cluster";
                };
                BigDecimal[] sum = sums.computeIfAbsent(key, k -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO,
                        BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
                sum[0] = sum[0].add(l.get("actual").decimalValue());
                sum[1] = sum[1].add(l.get("counted").decimalValue());
                sum[2] = sum[2].add(l.get("entitled").decimalValue());
                sum[3] = sum[3].add(l.get("charge").decimalValue());
                sum[4] = sum[4].add(l.get("vcoreSeconds").decimalValue());
            }
        }
        List<String> reported = new ArrayList<>();
        bucket.get("periods").forEach(p -> reported.add(p.asText()));
        assertThat(reported).isEqualTo(periods);
        assertThat(bucket.get("rows")).hasSize(sums.size());
        for (JsonNode row : bucket.get("rows")) {
            BigDecimal[] sum = sums.get(row.get("key").asText());
            assertThat(sum).as("a row for " + row.get("key")).isNotNull();
            assertThat(row.get("actual").decimalValue()).isEqualByComparingTo(sum[0]);
            assertThat(row.get("counted").decimalValue()).isEqualByComparingTo(sum[1]);
            assertThat(row.get("entitled").decimalValue()).isEqualByComparingTo(sum[2]);
            assertThat(row.get("charge").decimalValue()).isEqualByComparingTo(sum[3]);
            assertThat(row.get("vcoreSeconds").decimalValue()).isEqualByComparingTo(sum[4]);
            if (sum[2].signum() == 0) {
                assertThat(row.get("rho").isNull()).as("no rho without entitlement").isTrue();
            } else {
                assertThat(row.get("rho").asDouble()).isCloseTo(sum[0].doubleValue() / sum[2].doubleValue(),
                        org.assertj.core.data.Offset.offset(1e-9));
            }
        }
        assertThat(sums.values().stream().map(s -> s[0]).reduce(BigDecimal.ZERO, BigDecimal::add).signum())
                .as("the bucket has usage").isPositive();
    }

    private static String plain(JsonNode number) {
        return number.decimalValue().toPlainString();
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(command);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
