package io.fairledger.reports;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Usage reports as CSV, one row per cluster, bucket and group, written by Commons CSV in RFC 4180 form as the
 * statements' CSV is, so several clusters' reports make one sheet.
 */
public final class UsageCsv {

    /** The columns, in order. */
    public static final List<String> HEADER = List.of("cluster", "start", "end", "group", "vcore_seconds",
            "memory_mb_seconds", "gpu_seconds", "actual", "counted", "entitled", "rho", "charge", "total", "currency");

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    private UsageCsv() {
    }

    /** The CSV form of {@code reports}, header first, in their order. */
    public static String write(List<UsageReport> reports) {
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, FORMAT)) {
            csv.printRecord(HEADER);
            for (UsageReport report : reports) {
                for (UsageReport.Bucket b : report.buckets()) {
                    for (UsageReport.Row r : b.rows()) {
                        csv.printRecord(report.cluster(), b.start(), b.end(), r.key(), plain(r.vcoreSeconds()),
                                plain(r.memoryMbSeconds()), plain(r.gpuSeconds()), plain(r.actual()),
                                plain(r.counted()), plain(r.entitled()),
                                r.rho() == null ? "" : Double.toString(r.rho()), plain(r.charge()), plain(r.total()),
                                report.currency());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write CSV to memory", e);
        }
        return out.toString();
    }

    private static String plain(BigDecimal value) {
        return value.toPlainString();
    }
}
