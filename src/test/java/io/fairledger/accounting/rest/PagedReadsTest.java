package io.fairledger.accounting.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;
import io.fairledger.testsupport.YarnWorkload;

/**
 * Reading at scale against this test's server (real PostgreSQL and Kafka, the loopback admin): the cluster
 * statements, a tenant's statements and the audit trail a page at a time, each {@code Link: rel="next"} followed to
 * the end (every row once, none twice, the same rows as one large page); the audit trail by time range and as CSV;
 * and closed periods that keep the currency they were closed in after the cluster's currency changes.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class PagedReadsTest {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    private static final Instant START = Instant.parse("2026-11-21T00:00:00Z");
    private static final String CLUSTER = "paged-yarn";
    private static final String STATEMENTS = "/api/v1/admin/clusters/" + CLUSTER + "/statements";
    private static final String TENANT_STATEMENTS = "/api/v1/clusters/" + CLUSTER + "/tenants/root.q1/statements";
    private static final Pattern NEXT = Pattern.compile("^<([^>]+)>; rel=\"next\"$");

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void pagesFollowedToTheEndHoldEveryRowOnceAndClosedPeriodsKeepTheirCurrency() throws Exception {
        feed();
        // the cluster's currency changes: the periods that can close are closed first, in EUR
        given().contentType(ContentType.JSON).body(settings().replace("\"EUR\"", "\"USD\""))
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);

        JsonNode all = JSON.readTree(given().accept(ContentType.JSON).get(STATEMENTS).then().statusCode(200)
                .header("Link", (String) null).extract().asString());
        assertThat(all).as("the four periods the workload's events ended").hasSize(4);
        List<JsonNode> closed = new ArrayList<>();
        all.forEach(s -> {
            if (s.get("state").asText().equals("closed")) {
                closed.add(s);
            }
        });
        assertThat(closed).as("the periods closed before the change").isNotEmpty();
        assertThat(closed).allMatch(s -> s.get("currency").asText().equals("EUR"));
        all.forEach(s -> assertThat(s.get("currency").asText()).as(s.get("period") + ": provisional ones are "
                + "under today's settings").isEqualTo(s.get("state").asText().equals("closed") ? "EUR" : "USD"));

        // the cluster's statements, one and two periods a page: the same periods as one page, in order
        for (int limit : new int[]{1, 2}) {
            List<JsonNode> pages = follow(STATEMENTS + "?limit=" + limit, ContentType.JSON);
            List<String> periods = new ArrayList<>();
            for (JsonNode page : pages) {
                assertThat(page.size()).isBetween(1, limit);
                page.forEach(s -> periods.add(s.get("period").asText()));
            }
            assertThat(periods).isEqualTo(ids(all, "period"));
        }

        // as CSV, a page at a time, parsed back: each closed period's rows in EUR, every line once
        List<CSVRecord> rows = new ArrayList<>();
        String link = STATEMENTS + "?format=csv&limit=3";
        while (link != null) {
            Response r = given().urlEncodingEnabled(false).get(link).then().statusCode(200)
                    .contentType(containsString("text/csv")).extract().response();
            rows.addAll(CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(r.asString()))
                    .getRecords());
            link = next(r);
        }
        int lines = 0;
        for (JsonNode s : all) {
            lines += s.get("lines").size();
        }
        assertThat(rows).hasSize(lines);
        Set<String> closedPeriods = new HashSet<>(ids(closed, "period"));
        assertThat(rows).filteredOn(r -> closedPeriods.contains(r.get("period"))).isNotEmpty()
                .allMatch(r -> r.get("currency").equals("EUR") && r.get("state").equals("closed"));
        assertThat(new HashSet<>(rows.stream().map(r -> r.get("period") + "/" + r.get("tenant")).toList()))
                .hasSize(lines);

        // a tenant's statements, one period a page, JSON and CSV
        JsonNode mine = JSON.readTree(given().accept(ContentType.JSON).get(TENANT_STATEMENTS).then().statusCode(200)
                .extract().asString());
        List<String> paged = new ArrayList<>();
        for (JsonNode page : follow(TENANT_STATEMENTS + "?limit=1", ContentType.JSON)) {
            assertThat(page).hasSize(1);
            paged.add(page.get(0).get("period").asText());
            if (closedPeriods.contains(page.get(0).get("period").asText())) {
                assertThat(page.get(0).get("currency").asText()).isEqualTo("EUR");
            }
        }
        assertThat(paged).isEqualTo(ids(mine, "period"));
        String tenantCsv = given().queryParam("format", "csv").get(TENANT_STATEMENTS).then().statusCode(200)
                .extract().asString();
        assertThat(CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(tenantCsv)).getRecords())
                .filteredOn(r -> closedPeriods.contains(r.get("period"))).isNotEmpty()
                .allMatch(r -> r.get("currency").equals("EUR"));

        // bad pages: 400 problem+json naming the parameter
        String auditCursor = cursorOf(given().queryParam("limit", 1).get("/api/v1/admin/audit").then()
                .statusCode(200).extract().response());
        String tenantCursor = cursorOf(given().queryParam("limit", 1).get(TENANT_STATEMENTS).then().statusCode(200)
                .extract().response());
        for (String query : List.of("limit=0", "limit=101", "limit=x", "cursor=%21%21", "cursor=Zm9v",
                "cursor=" + auditCursor, "cursor=" + tenantCursor)) {
            given().urlEncodingEnabled(false).get(STATEMENTS + "?" + query).then().statusCode(400)
                    .contentType("application/problem+json");
        }
        given().urlEncodingEnabled(false).get("/api/v1/admin/audit?cursor=" + tenantCursor).then().statusCode(400)
                .body("errors[0].field", equalTo("query.cursor"));
        given().queryParam("limit", 1001).get(TENANT_STATEMENTS).then().statusCode(400);
    }

    @Test
    void theAuditTrailPagesByTimeRangeAndReadsBackAsCsv() throws Exception {
        String cluster = "paged-audit";
        given().contentType(ContentType.JSON).body("{\"id\":\"" + cluster + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        for (int i = 1; i <= 7; i++) {
            given().contentType(ContentType.JSON).body("{\"weight\":" + i + "}")
                    .put("/api/v1/admin/clusters/" + cluster + "/tenants/root.t" + (i % 3)).then().statusCode(200);
        }
        String audit = "/api/v1/admin/audit?cluster=" + cluster;
        JsonNode all = JSON.readTree(given().urlEncodingEnabled(false).get(audit).then().statusCode(200)
                .header("Link", (String) null).extract().asString());
        assertThat(all.size()).as("the registration and seven tenant changes at least").isGreaterThanOrEqualTo(8);
        List<String> ids = ids(all, "id");

        List<String> paged = new ArrayList<>();
        for (JsonNode page : follow(audit + "&limit=3", ContentType.JSON)) {
            assertThat(page.size()).isBetween(1, 3);
            page.forEach(c -> paged.add(c.get("id").asText()));
        }
        assertThat(paged).as("newest first, every change once").isEqualTo(ids);

        // from a change's instant on: that change and the newer ones; to it: the older ones
        JsonNode middle = all.get(all.size() / 2);
        String at = Instant.parse(middle.get("at").asText().replace("+00:00", "Z")).toString();
        JsonNode from = JSON.readTree(given().queryParam("cluster", cluster).queryParam("from", at)
                .get("/api/v1/admin/audit").then().statusCode(200).extract().asString());
        JsonNode to = JSON.readTree(given().queryParam("cluster", cluster).queryParam("to", at)
                .get("/api/v1/admin/audit").then().statusCode(200).extract().asString());
        assertThat(ids(from, "id")).contains(middle.get("id").asText());
        assertThat(from.size() + to.size()).as("the range splits the trail").isEqualTo(all.size());
        given().queryParam("from", at).queryParam("to", at).get("/api/v1/admin/audit").then().statusCode(422);
        given().queryParam("from", "yesterday").get("/api/v1/admin/audit").then().statusCode(422)
                .body("errors[0].field", equalTo("query.from"));

        // as CSV, by format and by Accept, two changes a page: the JSON's changes, parsed back
        List<CSVRecord> rows = new ArrayList<>();
        String link = audit + "&limit=2&format=csv";
        while (link != null) {
            Response r = given().urlEncodingEnabled(false).get(link).then().statusCode(200)
                    .contentType(containsString("text/csv")).extract().response();
            rows.addAll(CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(r.asString()))
                    .getRecords());
            link = next(r);
        }
        assertThat(rows.stream().map(r -> r.get("id")).toList()).isEqualTo(ids);
        CSVRecord newest = rows.get(0);
        assertThat(JSON.readTree(newest.get("after"))).isEqualTo(JSON.readTree(all.get(0).get("after").asText()));
        assertThat(newest.get("subject")).isEqualTo(all.get(0).get("subject").asText());
        assertThat(given().accept("text/csv").urlEncodingEnabled(false).get(audit).then().statusCode(200).extract()
                .asString()).startsWith("id,at,actor,cluster,subject,before,after,effective_from\n");
    }

    /** Every page from {@code first} on, following each answer's {@code Link: rel="next"}. */
    private static List<JsonNode> follow(String first, ContentType type) throws Exception {
        List<JsonNode> pages = new ArrayList<>();
        String link = first;
        while (link != null) {
            Response r = given().accept(type).urlEncodingEnabled(false).get(link).then().statusCode(200).extract()
                    .response();
            pages.add(JSON.readTree(r.asString()));
            link = next(r);
            assertThat(pages).as("pages end").hasSizeLessThan(1000);
        }
        return pages;
    }

    private static String next(Response r) {
        String link = r.header("Link");
        if (link == null) {
            return null;
        }
        Matcher m = NEXT.matcher(link);
        assertThat(m.matches()).as("an RFC 8288 next link: " + link).isTrue();
        return m.group(1);
    }

    private static String cursorOf(Response r) {
        Matcher m = Pattern.compile("[?&]cursor=([^&]+)").matcher(next(r));
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    private static List<String> ids(Iterable<JsonNode> items, String field) {
        Function<JsonNode, String> id = n -> n.get(field).asText();
        List<String> out = new ArrayList<>();
        items.forEach(n -> out.add(id.apply(n)));
        return out;
    }

    private static String settings() {
        return YarnWorkload.settings(START, 3).replace("\"period\":{\"length\":\"PT1H\"}",
                "\"period\":{\"length\":\"PT5M\"},\"allowedLateness\":\"PT1M\"")
                .replace("\"model\":\"USAGE\",", "\"model\":\"USAGE\",\"currency\":\"EUR\",");
    }

    /** Registers the cluster and publishes twenty minutes of its events, then waits for the last. */
    private void feed() throws Exception {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body(settings())
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
        List<String> lines = new ArrayList<>(YarnWorkload.lines(CLUSTER, START, 300, 3, 11));
        lines.add(YarnWorkload.last(CLUSTER, Instant.parse("2026-11-21T00:20:00Z")));
        EventPublisher.publishYarn(bootstrap, CLUSTER, lines);
        long last = 0;
        for (String line : lines) {
            last = Math.max(last, JSON.readTree(line).get("eventTime").asLong());
        }
        String asOf = Instant.ofEpochMilli(last).toString();
        Awaitility.await().atMost(90, TimeUnit.SECONDS).pollInterval(500, TimeUnit.MILLISECONDS)
                .untilAsserted(() -> given().get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                        .body("asOf", equalTo(asOf)));
    }
}
