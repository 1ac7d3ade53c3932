package io.fairledger.audit;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Audit changes as CSV, one row per change, written by Commons CSV in RFC 4180 form as the statements' CSV is:
 * {@code before} and {@code after} are the JSON documents as recorded, quoted.
 */
public final class AuditCsv {

    /** The columns, in order. */
    public static final List<String> HEADER = List.of("id", "at", "actor", "cluster", "subject", "before", "after",
            "effective_from");

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();

    private AuditCsv() {
    }

    /** The CSV form of {@code changes}, header first, in their order. */
    public static String write(List<AuditTrail.Change> changes) {
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, FORMAT)) {
            csv.printRecord(HEADER);
            for (AuditTrail.Change c : changes) {
                csv.printRecord(c.id(), c.at().toInstant(), c.actor(), text(c.cluster()), c.subject(),
                        text(c.before()), text(c.after()), c.effectiveFrom().toInstant());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write CSV to memory", e);
        }
        return out.toString();
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }
}
