package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import io.fairledger.core.fairness.FairnessDegree;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.TreeGrants;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/**
 * {@link LtrfOnYarnRun}'s tasks without YARN (a measured run, not a test): the same ledger and grants (fairledger's
 * core: {@link ClusterLedger}, {@link TreeGrants} with {@link LongTermMaxMin}) on 8 one-vcore slots, every container
 * of the real run, application masters included (1 vcore, 384 MB, held from the application's start to its last
 * task's end; an application asks for its 60 or 2000 tasks of 4 s, 1 vcore and 512 MB a second, or as told, after
 * its master starts), the steady application at 60 s after the registration, the bursts at 30 % and 65 % of the 360-s run.
 * Free slots go to the queue furthest below its grant, the grants taken anew at every event and containers starting
 * at once: what the bridge would do with no lag at all. So what it shows is LTRF's own behaviour on these tasks.
 * Arguments: the output directory, the memories to compare ({@link #memory}; default: the server's default and
 * {@link LtrfOnYarnRun}'s rounds) and the seconds from a master's start to its tasks' requests (default 1); per memory it prints and writes the bursty and steady queues' rho, the sharing loss
 * and the bursty queue's vcores every 5 s, and plots them all.
 */
public final class LtrfOnYarnSimulation {

    private static final String CLUSTER = "sim";
    private static final int SLOTS = 8;
    private static final long START = 60_000;
    private static final long RUN = 360_000;
    private static final long TASK = 4_000;
    /**
     * {@link LtrfOnYarnRun}'s memory: rounds of the time between the bursts (126 s), one starting 10 s before each
     * burst (the first burst at 60 + 108 s after the registration).
     */
    static final String BURST_ROUNDS = "rounds:126:158";
    private static final List<String> QUEUES = List.of("root.steady", "root.bursty");

    private LtrfOnYarnSimulation() {
    }

    /** One application: its queue, its tasks still to ask for or waiting, and its master's state. */
    private static final class App {
        final String id;
        final int queue;
        int toAsk;
        int waiting;
        int running;
        boolean masterAsked = true;
        String master;
        long asksAt = Long.MAX_VALUE;

        App(String id, int queue, int tasks) {
            this.id = id;
            this.queue = queue;
            this.toAsk = tasks;
        }

        int pending() {
            return waiting + (masterAsked ? 1 : 0);
        }
    }

    record Running(long end, String id, App app, boolean master) {
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args.length > 0 ? args[0] : "target/ltrf-on-yarn-simulation");
        String memories = args.length > 1 ? args[1] : "default," + BURST_ROUNDS;
        long masterWait = args.length > 2 ? Math.round(Double.parseDouble(args[2]) * 1000) : 1_000;
        Files.createDirectories(out);
        XYChart chart = new XYChartBuilder().width(1000).height(560)
                .title("LTRF on the run's tasks without YARN: the bursty queue's rho and the sharing loss")
                .xAxisTitle("seconds").yAxisTitle("rho / sharing loss").build();
        for (String memory : memories.split(",")) {
            List<double[]> rows = simulate(memory(memory), masterWait);
            StringBuilder csv = new StringBuilder("seconds,bursty_rho,steady_rho,sharing_loss,bursty_vcores\n");
            for (double[] r : rows) {
                csv.append(String.format(Locale.ROOT, "%.1f,%.4f,%.4f,%.6f,%.0f%n", r[0], r[1], r[2], r[3], r[4]));
            }
            Path file = out.resolve("simulation-" + memory.replace(':', '-') + ".csv");
            Files.writeString(file, csv);
            System.out.print("[ltrf-sim] " + memory + "\n" + csv);
            String name = memory.equals("default") ? "24-hour rounds (the default)" : "rounds of the bursts' period";
            for (int column : new int[]{1, 3}) {
                chart.addSeries((column == 1 ? "bursty rho, " : "sharing loss, ") + name,
                        rows.stream().filter(r -> Double.isFinite(r[column])).mapToDouble(r -> r[0]).toArray(),
                        rows.stream().filter(r -> Double.isFinite(r[column])).mapToDouble(r -> r[column]).toArray());
            }
        }
        BitmapEncoder.saveBitmap(chart, out.resolve("ltrf-on-yarn-simulation.png").toString(),
                BitmapEncoder.BitmapFormat.PNG);
        System.out.println("[ltrf-sim] wrote " + out.toAbsolutePath());
    }

    /**
     * One simulated run: per 5 s, the seconds since the steady application's start, the bursty and steady queues'
     * rho (NaN before they have entitlement), the sharing loss and the bursty queue's vcores.
     */
    static List<double[]> simulate(MemoryMode memory, long masterWait) {
        ClusterLedger ledger = new ClusterLedger(ClusterConfig.defaults(CLUSTER, 0,
                ResourceVector.of(SLOTS, SLOTS * 1024L, 0),
                List.of(TenantConfig.of("root.steady", 1.0), TenantConfig.of("root.bursty", 1.0))).withMemory(memory));
        List<App> apps = new ArrayList<>();
        List<long[]> submissions = List.of(new long[]{START, 0, 2000}, new long[]{START + RUN * 30 / 100, 1, 60},
                new long[]{START + RUN * 65 / 100, 1, 60});
        PriorityQueue<Running> running = new PriorityQueue<>(
                Comparator.comparingLong(Running::end).thenComparing(Running::id));
        List<double[]> rows = new ArrayList<>();
        int submitted = 0;
        long counter = 0;
        long end = START + RUN;
        for (long now = START; now <= end; now = next(now, running, apps, submissions, submitted)) {
            while (!running.isEmpty() && running.peek().end() == now) {
                Running r = running.poll();
                ledger.apply(new LedgerEvent.TaskFinished(CLUSTER, r.id(), now));
                r.app().running--;
                if (!r.master() && r.app().running == 1 && r.app().toAsk + r.app().waiting == 0) {
                    // the last task ended: the master unregisters
                    running.removeIf(m -> m.id().equals(r.app().master));
                    ledger.apply(new LedgerEvent.TaskFinished(CLUSTER, r.app().master, now));
                    r.app().running = 0;
                }
            }
            while (submitted < submissions.size() && submissions.get(submitted)[0] == now) {
                long[] s = submissions.get(submitted++);
                App app = new App("app-" + submitted, (int) s[1], (int) s[2]);
                apps.add(app);
                demand(ledger, app, now);
            }
            for (App app : apps) {
                if (app.asksAt == now) {
                    app.waiting = app.toAsk;
                    app.toAsk = 0;
                    demand(ledger, app, now);
                }
            }
            int free = SLOTS - running.size();
            if (free > 0) {
                Map<TenantPath, double[]> grant = TreeGrants.tree(ledger, now, 10_000, new LongTermMaxMin());
                double[] deficit = new double[QUEUES.size()];
                for (int q = 0; q < QUEUES.size(); q++) {
                    double[] target = grant.get(TenantPath.parse(QUEUES.get(q)));
                    deficit[q] = (target == null ? 0 : target[0] / 1000.0) - held(running, q);
                }
                while (free > 0) {
                    App best = null;
                    for (App app : apps) {
                        if (app.pending() > 0 && (best == null || deficit[app.queue] > deficit[best.queue])) {
                            best = app;
                        }
                    }
                    if (best == null) {
                        break;
                    }
                    String id = "c-" + counter++;
                    boolean master = best.masterAsked;
                    if (master) {
                        best.masterAsked = false;
                        best.master = id;
                        best.asksAt = now + masterWait;
                    } else {
                        best.waiting--;
                    }
                    best.running++;
                    running.add(new Running(master ? Long.MAX_VALUE : now + TASK, id, best, master));
                    ledger.apply(new LedgerEvent.TaskStarted(CLUSTER, id, TenantPath.parse(QUEUES.get(best.queue)),
                            best.id, ResourceVector.of(1, master ? 384 : 512, 0), now));
                    deficit[best.queue]--;
                    free--;
                    demand(ledger, best, now);
                }
            }
            if (now % 5_000 == 0) {
                FairnessReport report = FairnessReport.ofPeriod(ledger.accounts(now).stream()
                        .filter(a -> a.path().depth() == 1).toList());
                rows.add(new double[]{(now - START) / 1000.0, rho(report, "root.bursty"),
                        rho(report, "root.steady"), report.sharingLoss(), held(running, 1)});
            }
        }
        return rows;
    }

    /** {@code default}, {@code rounds:<seconds>[:<origin seconds>]} or {@code decay:<half-life seconds>}. */
    static MemoryMode memory(String text) {
        String[] parts = text.split(":");
        return switch (parts[0]) {
            case "default" -> MemoryMode.defaultRounds();
            case "rounds" -> new MemoryMode.Rounds(Long.parseLong(parts[1]) * 1000,
                    parts.length > 2 ? Long.parseLong(parts[2]) * 1000 : 0);
            case "decay" -> new MemoryMode.Decay(Long.parseLong(parts[1]) * 1000);
            default -> throw new IllegalArgumentException("memory: default, rounds:<s>[:<origin s>] or decay:<s>");
        };
    }

    private static long next(long now, PriorityQueue<Running> running, List<App> apps, List<long[]> submissions,
            int submitted) {
        long next = (now / 5_000 + 1) * 5_000;
        if (!running.isEmpty()) {
            next = Math.min(next, running.peek().end());
        }
        if (submitted < submissions.size()) {
            next = Math.min(next, submissions.get(submitted)[0]);
        }
        for (App app : apps) {
            if (app.asksAt > now) {
                next = Math.min(next, app.asksAt);
            }
        }
        return next;
    }

    private static void demand(ClusterLedger ledger, App app, long now) {
        int cores = app.pending();
        long mb = app.waiting * 512L + (app.masterAsked ? 384 : 0);
        ledger.apply(new LedgerEvent.DemandChanged(CLUSTER, TenantPath.parse(QUEUES.get(app.queue)), app.id,
                ResourceVector.of(cores, mb, 0), now));
    }

    private static int held(PriorityQueue<Running> running, int queue) {
        return (int) running.stream().filter(r -> r.app().queue == queue).count();
    }

    private static double rho(FairnessReport report, String queue) {
        FairnessDegree degree = report.degrees().get(TenantPath.parse(queue).toString());
        return degree == null || degree.noEntitlement() ? Double.NaN : degree.value();
    }
}
