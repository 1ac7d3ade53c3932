package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;

/** Statements as CSV: ids with commas, quotes and line breaks survive a parse. */
class StatementCsvTest {

    @Test
    void idsWithCommasQuotesAndLineBreaksAreQuotedAndReadBackAsTheyWere() throws Exception {
        String tenant = "root.\"a,b\"\nc";
        StatementView.Line line = new StatementView.Line(tenant, false, new BigDecimal("3600"),
                new BigDecimal("7200"), BigDecimal.ZERO, new BigDecimal("1.5"), new BigDecimal("2"),
                new BigDecimal("4"), 0.5, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO,
                new BigDecimal("1.25"),
                List.of(new StatementView.Adjustment("p0", new BigDecimal("-0.25"), "late event")),
                new BigDecimal("1.00"));
        StatementView statement = new StatementView("yarn,prod", "p1", Instant.parse("2026-11-21T00:00:00Z"),
                Instant.parse("2026-11-21T01:00:00Z"), StatementView.CLOSED, "USAGE", "EUR", new BigDecimal("1.00"),
                List.of(line));

        String csv = StatementCsv.write(List.of(statement));

        assertThat(csv).startsWith(String.join(",", StatementCsv.HEADER) + "\n");
        assertThat(csv).contains("\"yarn,prod\"").contains("\"root.\"\"a,b\"\"\nc\"");
        List<CSVRecord> records = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(csv))
                .getRecords();
        assertThat(records).hasSize(1);
        CSVRecord r = records.get(0);
        assertThat(r.get("cluster")).isEqualTo("yarn,prod");
        assertThat(r.get("tenant")).isEqualTo(tenant);
        assertThat(r.get("rho")).isEqualTo("0.5");
        assertThat(r.get("adjustments")).isEqualTo("-0.25");
        assertThat(r.get("total")).isEqualTo("1.00");
        assertThat(r.get("currency")).isEqualTo("EUR");
        assertThat(r.get("state")).isEqualTo("closed");
        assertThat(r.get("inner")).isEqualTo("false");
        assertThat(r.size()).isEqualTo(StatementCsv.HEADER.size());
    }

    @Test
    void aLineWithoutEntitlementHasAnEmptyRho() throws Exception {
        StatementView.Line line = new StatementView.Line("root.a", false, BigDecimal.ZERO, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, List.of(), BigDecimal.ZERO);
        StatementView statement = new StatementView("c", "p0", Instant.EPOCH, Instant.EPOCH.plusSeconds(60),
                StatementView.PROVISIONAL, "USAGE", "XXX", BigDecimal.ZERO, List.of(line));
        CSVRecord r = CSVFormat.RFC4180.builder().setHeader().get()
                .parse(new StringReader(StatementCsv.write(List.of(statement)))).getRecords().get(0);
        assertThat(r.get("rho")).isEmpty();
    }

    @Test
    void aShortGroupBuyPeriodStatesItsFractionAndAWholeOneNone() throws Exception {
        StatementView.Line line = new StatementView.Line("root.a", false, BigDecimal.ZERO, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, List.of(), BigDecimal.ZERO);
        StatementView whole = new StatementView("c", "2026-04", Instant.parse("2026-03-31T22:00:00Z"),
                Instant.parse("2026-04-30T22:00:00Z"), StatementView.CLOSED, "GROUP_BUY", "EUR", BigDecimal.ZERO,
                List.of(line));
        StatementView shortOne = new StatementView("c", "2026-03", Instant.parse("2026-03-16T23:00:00Z"),
                Instant.parse("2026-03-31T22:00:00Z"), StatementView.CLOSED, "GROUP_BUY", "EUR", BigDecimal.ZERO,
                List.of(line), new StatementView.Prorated(new BigDecimal("0.483176"), new BigDecimal("359.000000"),
                        new BigDecimal("743.000000")),
                null);
        List<CSVRecord> rows = CSVFormat.RFC4180.builder().setHeader().get()
                .parse(new StringReader(StatementCsv.write(List.of(shortOne, whole)))).getRecords();
        assertThat(rows.get(0).get("prorated")).isEqualTo("0.483176");
        assertThat(rows.get(1).get("prorated")).isEmpty();
    }
}
