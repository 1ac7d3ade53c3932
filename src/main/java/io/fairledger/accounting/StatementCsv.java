package io.fairledger.accounting;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Statements as CSV, one row per tenant per period, written by Commons CSV (RFC 4180): a field holding a comma, a
 * quote or a line break is quoted, so a tenant id like {@code root."a,b"} survives a spreadsheet round trip. The same
 * text for the HTTP API ({@code ?format=csv} or {@code Accept: text/csv}) and {@code fairledger account}.
 */
public final class StatementCsv {

    /** The columns, in order. */
    public static final List<String> HEADER = List.of("cluster", "period", "start", "end", "state", "model", "tenant",
            "inner", "vcore_seconds", "memory_mb_seconds", "gpu_seconds", "counted", "actual", "entitled", "rho",
            "lent",
            "borrowed", "owed", "balance", "charge", "adjustments", "total", "currency", "prorated");

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    private StatementCsv() {
    }

    /**
     * The CSV form of {@code statements}, header first; each row's {@code currency} is its statement's, the one its
     * period was closed in (a later change of the cluster's currency does not relabel it); {@code prorated} the fraction of
     * its whole period a short GROUP_BUY period bills (docs/billing.md), empty otherwise.
     */
    public static String write(List<StatementView> statements) {
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, FORMAT)) {
            csv.printRecord(HEADER);
            for (StatementView s : statements) {
                for (StatementView.Line l : s.lines()) {
                    BigDecimal adjusted = l.adjustments().stream().map(StatementView.Adjustment::amount)
                            .reduce(BigDecimal.ZERO, BigDecimal::add);
                    csv.printRecord(s.cluster(), s.period(), s.start(), s.end(), s.state(), s.model(), l.tenant(),
                            l.inner(), plain(l.vcoreSeconds()), plain(l.memoryMbSeconds()), plain(l.gpuSeconds()),
                            plain(l.counted()), plain(l.actual()), plain(l.entitled()),
                            l.rho() == null ? "" : Double.toString(l.rho()), plain(l.lent()), plain(l.borrowed()),
                            plain(l.owed()), plain(l.balance()), plain(l.charge()), plain(adjusted), plain(l.total()),
                            s.currency(), s.prorated() == null ? "" : plain(s.prorated().fraction()));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write CSV to memory", e);
        }
        return out.toString();
    }

    private static String plain(BigDecimal value) {
        return value == null ? "" : value.toPlainString();
    }
}
