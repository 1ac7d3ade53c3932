package io.fairledger.simulation.report;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import io.fairledger.core.jobsim.Summary;
import io.fairledger.simulation.RunSummary;

/** The matrix's summaries as one CSV, the bar charts per metric and capacity, and the HTML report. */
public final class SummaryFiles {

    /** Header of {@code summary.csv}. */
    public static final String CSV_HEADER = "deadlines,capacity,policy,jobs,SDR,PTR,WTR,utilization,fairness,equality,seconds";

    private SummaryFiles() {
    }

    /** Rows sorted by deadlines, capacity, then the order of policies given. */
    public static void writeCsv(Path file, List<RunSummary> runs) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(CSV_HEADER + "\n");
            for (RunSummary r : runs) {
                Summary s = r.summary();
                w.write(String.format(Locale.ROOT, "%s,%d,%s,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.3f%n",
                        r.key().deadlines(), r.key().capacity(), r.key().policy(), r.jobs(), s.sdr(), s.ptr(),
                        s.wtr(), s.utilization(), s.fairness(), s.equality(), r.seconds()));
            }
        }
    }

    /** {@code plots/<metric>-c<capacity>.png|svg} and {@code report.html} in {@code dir}. */
    public static void writeReport(Path dir, String title, List<RunSummary> runs, List<String> policies,
            List<String> deadlines, List<Integer> capacities, List<String> notes) throws IOException {
        HtmlReport report = new HtmlReport(title);
        for (String note : notes) {
            if (!note.isBlank()) {
                report.paragraph(note);
            }
        }
        List<RunSummary> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparing((RunSummary r) -> deadlines.indexOf(r.key().deadlines()))
                .thenComparingInt(r -> r.key().capacity()).thenComparing(r -> policies.indexOf(r.key().policy())));
        List<List<String>> table = new ArrayList<>();
        table.add(List.of(CSV_HEADER.split(",")));
        for (RunSummary r : sorted) {
            Summary s = r.summary();
            table.add(List.of(r.key().deadlines(), Integer.toString(r.key().capacity()), r.key().policy(),
                    Integer.toString(r.jobs()), f(s.sdr()), f(s.ptr()), f(s.wtr()), f(s.utilization()),
                    f(s.fairness()), f(s.equality()), String.format(Locale.ROOT, "%.2f", r.seconds())));
        }
        report.heading("Summary").table(table);
        for (int capacity : capacities) {
            report.heading("Capacity " + capacity + " CPUs");
            for (String metric : Charts.METRICS) {
                var chart = Charts.metricByDeadline(metric + " at " + capacity + " CPUs", metric, capacity, runs,
                        deadlines, policies);
                byte[] png = Charts.save(chart, dir.resolve("plots").resolve(metric + "-c" + capacity));
                report.figure(metric + " per policy and deadline model, " + capacity + " CPUs", png);
            }
        }
        report.write(dir.resolve("report.html"));
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }
}
