package io.fairledger.billing;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import javax.imageio.ImageIO;

import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ManagedContext;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.rendering.PDFRenderer;
import org.apache.pdfbox.text.PDFTextStripper;
import org.awaitility.Awaitility;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.cli.ReportCommand;
import io.fairledger.testsupport.EventPublisher;
import io.fairledger.testsupport.KafkaResource;
import io.fairledger.testsupport.PostgresResource;

/**
 * The FOCUS export and the invoices on the real server: hourly periods from 2026-11-20T00:00Z, one hour of lateness,
 * a cluster with a GPU, two price plans and a late container that becomes an adjustment. Every column's
 * requirements hold on the export ({@link FocusRequirements}); BilledCost sums to each closed statement's line total
 * (adjustments included) per tenant and period, and to the invoice of that tenant and period (its InvoiceId); the
 * invoice's PDF holds its lines and total (the export and the PDF's page are left in {@code target/} to look at); {@code fairledger report --focus} prints the export; bad ranges and periods not closed are refused with problem+json.
 */
@QuarkusTest
@WithTestResource(value = PostgresResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = KafkaResource.class, scope = TestResourceScope.GLOBAL)
class FocusExportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CLUSTER = "focus-export";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Inject
    StatementService statements;

    @TestHTTPResource("/")
    URL server;

    @Test
    void theExportMeetsFocusAndSumsToTheStatementsAndInvoices() throws Exception {
        register();
        publish(container("c1", "root.a.x", 4, 0, "2026-11-20T00:00:00", "2026-11-20T00:40:00"),
                container("c2", "root.b", 8, 1, "2026-11-20T00:10:00", "2026-11-20T01:30:00"),
                container("c3", "root.a.x", 3, 0, "2026-11-20T01:00:00", "2026-11-20T02:20:00"),
                container("c4", "root.b", 5, 0, "2026-11-20T02:00:00", "2026-11-20T03:10:00"));
        awaitAsOf("2026-11-20T03:10:00Z");
        // late for period 0, closed by then: an adjustment line in a later statement
        publish(container("c5", "root.a.x", 6, 1, "2026-11-20T00:05:00", "2026-11-20T00:50:00"),
                container("c6", "root.b", 1, 0, "2026-11-20T03:30:00", "2026-11-20T05:30:00"));
        awaitAsOf("2026-11-20T05:30:00Z");
        Instant until = Instant.parse("2026-11-20T05:00:00Z");
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> assertThat(read(until).stream()
                .filter(s -> s.state().equals(StatementView.CLOSED))).as("periods 0 to 3 closed").hasSize(4));
        List<StatementView> all = read(until);

        String csv = given().accept("text/csv").queryParam("to", until.toString())
                .get("/api/v1/clusters/" + CLUSTER + "/focus").then().statusCode(200).contentType("text/csv")
                .extract().asString();
        StringWriter printed = new StringWriter();
        CommandLine report = new CommandLine(new ReportCommand());
        report.setOut(new PrintWriter(printed, true));
        assertThat(report.execute("--server", server.toString(), "--cluster", CLUSTER, "--to", until.toString(),
                "--focus")).isZero();
        assertThat(printed.toString()).as("fairledger report --focus").isEqualTo(csv);
        Files.writeString(Path.of("target/focus-export.csv"), csv);
        List<Map<String, String>> rows = FocusRequirements.rows(csv);
        FocusRequirements.check(rows);
        assertThat(rows).filteredOn(r -> "Correction".equals(r.get("ChargeClass"))).as("the late container")
                .isNotEmpty();
        assertThat(rows).filteredOn(r -> "GPU-Hours".equals(r.get("PricingUnit"))).isNotEmpty();
        assertThat(rows).extracting(r -> r.get("SubAccountId")).doesNotContain("root.a");

        int lines = 0;
        for (StatementView s : all) {
            if (!s.state().equals(StatementView.CLOSED)) {
                assertThat(rows).as("a provisional period is not billed").noneMatch(
                        r -> r.get("InvoiceId").endsWith("/" + s.period()));
                continue;
            }
            for (StatementView.Line l : s.lines()) {
                if (l.inner()) {
                    continue;
                }
                String invoiceId = CLUSTER + "/" + l.tenant() + "/" + s.period();
                BigDecimal billed = rows.stream().filter(r -> r.get("InvoiceId").equals(invoiceId))
                        .map(r -> FocusRequirements.decimal(r, "BilledCost")).reduce(BigDecimal.ZERO,
                                BigDecimal::add);
                assertThat(billed).as("BilledCost of %s", invoiceId).isEqualByComparingTo(l.total());
                JsonNode invoice = JSON.readTree(given().accept(ContentType.JSON)
                        .get("/api/v1/clusters/" + CLUSTER + "/tenants/" + l.tenant() + "/invoices/" + s.period())
                        .then().statusCode(200).extract().asString());
                assertThat(invoice.get("id").asText()).isEqualTo(invoiceId);
                assertThat(invoice.get("total").decimalValue()).as("the invoice of %s", invoiceId)
                        .isEqualByComparingTo(billed);
                assertThat(invoice.get("chainHash").asText()).as("the invoice of %s names its statement's hash",
                        invoiceId).isEqualTo(s.chain().hash());
                lines++;
            }
        }
        assertThat(lines).as("three leaves in each of four closed periods").isEqualTo(12);

        StatementView corrected = all.stream().filter(s -> s.lines().stream()
                .anyMatch(l -> !l.adjustments().isEmpty())).findFirst().orElseThrow();
        byte[] pdf = given().accept("application/pdf").get("/api/v1/clusters/" + CLUSTER
                + "/tenants/root.a.x/invoices/" + corrected.period()).then().statusCode(200)
                .contentType("application/pdf").extract().asByteArray();
        try (PDDocument document = Loader.loadPDF(pdf)) {
            String text = new PDFTextStripper().getText(document);
            StatementView.Line x = corrected.lines().stream().filter(l -> l.tenant().equals("root.a.x")).findFirst()
                    .orElseThrow();
            assertThat(text).contains("root.a.x", corrected.period(), "vcore-hours", "GB-hours", "GPU-hours",
                    "Corrects period " + x.adjustments().get(0).correctedPeriod(),
                    "Total: " + x.total().toPlainString() + " EUR", corrected.chain().hash());
            ImageIO.write(new PDFRenderer(document).renderImageWithDPI(0, 100), "png",
                    new File("target/invoice-server.png"));
        }
        given().get("/portal/clusters/" + CLUSTER + "/tenants/root.a.x/invoices/" + corrected.period()).then()
                .statusCode(200).body(Matchers.containsString("id=\"total\">" + corrected.lines().stream()
                        .filter(l -> l.tenant().equals("root.a.x")).findFirst().orElseThrow().total()
                        .toPlainString()));

        given().get("/portal/clusters/" + CLUSTER + "/tenants/root.a.x/invoices/" + corrected.period() + ".pdf").then()
                .statusCode(200).contentType("application/pdf");
        // the tenant's page links the invoice of each closed period
        given().get("/portal/clusters/" + CLUSTER + "/tenants/root.a.x").then().statusCode(200)
                .body(Matchers.containsString("class=\"invoice-link\" href=\"/portal/clusters/" + CLUSTER
                        + "/tenants/root.a.x/invoices/" + corrected.period() + "\""));

        refusals(all);
    }

    private static void refusals(List<StatementView> all) {
        String focus = "/api/v1/clusters/" + CLUSTER + "/focus";
        given().queryParam("from", "yesterday").get(focus).then().statusCode(422)
                .contentType("application/problem+json");
        given().queryParam("from", "2026-11-20T03:00:00Z").queryParam("to", "2026-11-20T02:00:00Z").get(focus)
                .then().statusCode(422).contentType("application/problem+json");
        given().queryParam("to", "2020-01-01T00:00:00Z").get(focus).then().statusCode(422)
                .contentType("application/problem+json");
        String invoices = "/api/v1/clusters/" + CLUSTER + "/tenants/";
        StatementView provisional = all.get(all.size() - 1);
        assertThat(provisional.state()).isEqualTo(StatementView.PROVISIONAL);
        given().accept(ContentType.JSON).get(invoices + "root.b/invoices/" + provisional.period()).then()
                .statusCode(409).contentType("application/problem+json");
        given().accept(ContentType.JSON).get(invoices + "root.a/invoices/" + all.get(0).period()).then()
                .statusCode(422).contentType("application/problem+json");
        given().accept(ContentType.JSON).get(invoices + "root.b/invoices/no-such-period").then().statusCode(404)
                .contentType("application/problem+json");
    }

    private List<StatementView> read(Instant until) {
        ManagedContext context = Arc.container().requestContext();
        context.activate();
        try {
            return statements.statements(CLUSTER, until);
        } finally {
            context.terminate();
        }
    }

    private static void register() {
        given().contentType(ContentType.JSON).body("{\"id\":\"" + CLUSTER + "\",\"resourceManager\":\"YARN\"}")
                .post("/api/v1/admin/clusters").then().statusCode(201);
        given().contentType(ContentType.JSON).body("""
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":2},
                 "discountRate":0.5,"memory":{"mode":"FULL"},"period":{"length":"PT1H"},"allowedLateness":"PT1H",
                 "chargeback":{"model":"USAGE","currency":"EUR","defaultPlan":"std","plans":[{"name":"std",
                 "perVcoreHour":"1.10","perGbHour":"0.05","perGpuHour":"2.5"},{"name":"gold","perVcoreHour":"0.9",
                 "perGbHour":"0.04","perGpuHour":"2"}]},"tenants":[{"path":"root.a.x","weight":1,"pricePlan":"gold"},
                 {"path":"root.a.y","weight":1},{"path":"root.b","weight":2}]}""")
                .put("/api/v1/admin/clusters/" + CLUSTER + "/ledger-settings").then().statusCode(200);
    }

    private static void awaitAsOf(String asOf) {
        Awaitility.await().atMost(60, TimeUnit.SECONDS).untilAsserted(() -> given()
                .get("/api/v1/clusters/" + CLUSTER + "/grants").then().statusCode(200)
                .body("asOf", Matchers.equalTo(asOf)));
    }

    private void publish(String... lines) {
        EventPublisher.publishYarn(bootstrap, CLUSTER, List.of(lines));
    }

    private static String container(String id, String queue, int vcores, int gpus, String from, String to) {
        return ("{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"cluster\":\"%s\",\"eventTime\":"
                + "\"%sZ\",\"applicationId\":\"application_1_0001\",\"attemptId\":\"appattempt_1_0001_01\","
                + "\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u\",\"allocatedMemoryMb\":%d,"
                + "\"allocatedVcores\":%d,\"allocatedGpus\":%d,\"node\":\"n1\",\"state\":\"COMPLETE\","
                + "\"createdTime\":\"%sZ\",\"finishedTime\":\"%sZ\"}").formatted(id + "-" + CLUSTER, CLUSTER, to, id,
                        queue, vcores * 1024, vcores, gpus, from, to);
    }
}
