package io.fairledger.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import picocli.CommandLine.Option;

import io.fairledger.core.jobsim.TenantFairnessSimulation;
import io.fairledger.core.jobsim.TenantFairnessSimulation.Policy;
import io.fairledger.core.jobsim.TenantFairnessSimulation.Series;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.simulation.report.Charts;
import io.fairledger.simulation.report.HtmlReport;

/**
 * {@code fairledger simulate --tenant-experiment}: LTRF vs MLRF on tenants with shifting demand
 * ({@link TenantFairnessSimulation}); writes {@code <out>/tenants-<policy>.csv} (time, rho per tenant, Omega, Psi,
 * utilization), {@code <out>/plots/omega.png|svg}, {@code rho-<policy>.png|svg} and {@code <out>/report.html}.
 */
final class TenantExperimentRunner {

    /** The experiment's options. */
    static final class Options {
        @Option(names = "--tenant-experiment", required = true, description = "Run the LTRF vs MLRF tenant experiment instead of admission policies.")
        boolean enabled;

        @Option(names = "--te-tenants", defaultValue = "2", paramLabel = "N", description = "Tenants (weight 1 each). Default: ${DEFAULT-VALUE}.")
        int tenants;

        @Option(names = "--te-capacity", defaultValue = "100", paramLabel = "N", description = "CPUs. Default: ${DEFAULT-VALUE}.")
        int capacity;

        @Option(names = "--te-phase-hours", defaultValue = "2", paramLabel = "H", description = "Length of a demand phase. Default: ${DEFAULT-VALUE}.")
        double phaseHours;

        @Option(names = "--te-phases", defaultValue = "36", paramLabel = "N", description = "Phases. Default: ${DEFAULT-VALUE}.")
        int phases;

        @Option(names = "--te-task-minutes", defaultValue = "30", paramLabel = "M", description = "Mean task duration (exponential). Default: ${DEFAULT-VALUE}.")
        double taskMinutes;

        @Option(names = "--te-steady-intensity", defaultValue = "1.0", paramLabel = "X", description = "Work the steady tenant t0 brings per phase, as a fraction of capacity x phase. Default: ${DEFAULT-VALUE}.")
        double steadyIntensity;

        @Option(names = "--te-intensity", defaultValue = "0.4", paramLabel = "X", description = "Work a bursty tenant brings per burst (every other phase, in turn), same unit. Default: ${DEFAULT-VALUE}.")
        double intensity;

        @Option(names = "--te-memory", defaultValue = "full", paramLabel = "full|rounds:H|decay:H", description = "Ledger memory mode: full, rounds of H hours, or decay with a half-life of H hours. Default: ${DEFAULT-VALUE}.")
        String memory;

        @Option(names = "--te-sample-minutes", defaultValue = "10", paramLabel = "M", description = "Sample period of rho, Omega and Psi. Default: ${DEFAULT-VALUE}.")
        double sampleMinutes;
    }

    private TenantExperimentRunner() {
    }

    static MemoryMode memory(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        if (t.equals("full")) {
            return new MemoryMode.Full();
        }
        String[] parts = t.split(":");
        if (parts.length == 2 && (parts[0].equals("rounds") || parts[0].equals("decay"))) {
            long ms;
            try {
                ms = Math.round(Double.parseDouble(parts[1]) * 3_600_000);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--te-memory: hours must be a number, got '" + parts[1] + "'");
            }
            return parts[0].equals("rounds") ? new MemoryMode.Rounds(ms, 0) : new MemoryMode.Decay(ms);
        }
        throw new IllegalArgumentException("--te-memory must be full, rounds:H or decay:H, got '" + text + "'");
    }

    static int run(Options o, long seed, Path outDir, PrintWriter out, PrintWriter err, boolean report) {
        TenantFairnessSimulation sim;
        try {
            sim = new TenantFairnessSimulation(o.tenants, o.capacity, o.phaseHours * 3600, o.phases,
                    o.taskMinutes * 60, o.steadyIntensity, o.intensity, memory(o.memory), o.sampleMinutes * 60);
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return SimulateCommand.EXIT_BAD_INPUT;
        }
        try {
            Files.createDirectories(outDir);
            Map<Policy, Series> results = new LinkedHashMap<>();
            for (Policy p : Policy.values()) {
                long start = System.nanoTime();
                Series s = sim.run(p, seed);
                results.put(p, s);
                int last = s.seconds().length - 1;
                out.printf(Locale.ROOT, "%s: Omega at end %.4f, Psi at end %.4f, rho at end %s (%.2f s)%n", p,
                        s.omega()[last], s.psi()[last], rhoAt(s, last), (System.nanoTime() - start) / 1e9);
                writeCsv(outDir.resolve("tenants-" + p.name().toLowerCase(Locale.ROOT) + ".csv"), s);
            }
            if (report) {
                writeReport(outDir, o, seed, results);
            }
            return 0;
        } catch (IOException e) {
            err.println("error: cannot write to " + outDir + ": " + e.getMessage());
            return SimulateCommand.EXIT_IO;
        }
    }

    private static String rhoAt(Series s, int i) {
        StringBuilder sb = new StringBuilder();
        for (var e : s.rho().entrySet()) {
            sb.append(sb.isEmpty() ? "" : " ").append(e.getKey()).append('=')
                    .append(String.format(Locale.ROOT, "%.4f", e.getValue()[i]));
        }
        return sb.toString();
    }

    private static void writeCsv(Path file, Series s) throws IOException {
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("seconds");
            for (String t : s.rho().keySet()) {
                w.write(",rho_" + t);
            }
            w.write(",omega,psi,utilization\n");
            for (int i = 0; i < s.seconds().length; i++) {
                w.write(String.format(Locale.ROOT, "%.0f", s.seconds()[i]));
                for (double[] r : s.rho().values()) {
                    w.write(Double.isNaN(r[i]) ? "," : String.format(Locale.ROOT, ",%.6f", r[i]));
                }
                w.write(String.format(Locale.ROOT, ",%.6f,%.6f,%.6f%n", s.omega()[i], s.psi()[i],
                        s.utilization()[i]));
            }
        }
    }

    private static void writeReport(Path dir, Options o, long seed, Map<Policy, Series> results) throws IOException {
        HtmlReport report = new HtmlReport("fairledger simulate: LTRF vs MLRF, shifting demand");
        report.paragraph(String.format(Locale.ROOT,
                "%d tenants of weight 1, %d CPUs, %d phases of %.1f h; t0 is steady and submits %.2f x capacity x phase"
                        + " of work every phase; at every even phase one bursty tenant in turn submits %.2f x capacity"
                        + " x phase; tasks exponential, mean %.1f min; no preemption; memory %s; seed %d.",
                o.tenants, o.capacity, o.phases, o.phaseHours, o.steadyIntensity, o.intensity, o.taskMinutes,
                o.memory, seed));
        Map<String, double[][]> omega = new LinkedHashMap<>();
        Map<String, double[][]> psi = new LinkedHashMap<>();
        for (Series s : results.values()) {
            double[] hours = hours(s.seconds());
            omega.put(s.policy().name(), new double[][]{hours, s.omega()});
            psi.put(s.policy().name(), new double[][]{hours, s.psi()});
        }
        report.heading("Sharing loss Omega over time");
        report.figure("Omega (sharing loss, LTRF eq. 5) over time",
                Charts.save(Charts.lines("Sharing loss Omega", "hours", "Omega", omega),
                        dir.resolve("plots").resolve("omega")));
        report.heading("Sharing benefit Psi over time");
        report.figure("Psi (sharing benefit, LTRF eq. 4) over time",
                Charts.save(Charts.lines("Sharing benefit Psi", "hours", "Psi", psi),
                        dir.resolve("plots").resolve("psi")));
        for (Series s : results.values()) {
            Map<String, double[][]> rho = new LinkedHashMap<>();
            double[] hours = hours(s.seconds());
            for (var e : s.rho().entrySet()) {
                rho.put(e.getKey(), withoutNaN(hours, e.getValue()));
            }
            String name = s.policy().name();
            report.heading("Fairness degree rho per tenant, " + name);
            report.figure("rho per tenant under " + name,
                    Charts.save(Charts.lines("rho per tenant, " + name, "hours", "rho", rho),
                            dir.resolve("plots").resolve("rho-" + name.toLowerCase(Locale.ROOT))));
        }
        report.write(dir.resolve("report.html"));
    }

    private static double[] hours(double[] seconds) {
        double[] h = new double[seconds.length];
        for (int i = 0; i < h.length; i++) {
            h[i] = seconds[i] / 3600;
        }
        return h;
    }

    private static double[][] withoutNaN(double[] x, double[] y) {
        int n = 0;
        for (double v : y) {
            n += Double.isNaN(v) ? 0 : 1;
        }
        double[][] out = new double[2][n];
        int k = 0;
        for (int i = 0; i < y.length; i++) {
            if (!Double.isNaN(y[i])) {
                out[0][k] = x[i];
                out[1][k++] = y[i];
            }
        }
        if (n == 0) {
            return new double[][]{{0}, {1}};
        }
        return out;
    }
}
