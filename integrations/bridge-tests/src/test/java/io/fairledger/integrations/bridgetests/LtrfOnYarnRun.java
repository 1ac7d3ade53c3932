package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import io.fairledger.integrations.yarn.BridgeConfig;
import io.fairledger.integrations.yarn.FairledgerCapacityScheduler;
import io.fairledger.integrations.yarn.FairledgerGrantsPolicy;
import io.fairledger.integrations.yarn.GrantsClient;
import io.fairledger.testsupport.RealDependency;

/**
 * The LTRF evaluation on a real YARN (a measured run, not a test): one queue steady, one bursty, equal weights; the
 * same workload under each scheduler set-up named, the bridge feeding the packaged server in all: {@code yarn-fair}
 * (the Fair Scheduler with YARN's fair share policy on {@code root}, no grants followed), {@code fair} (the Fair
 * Scheduler with {@link FairledgerGrantsPolicy}) and {@code capacity} ({@link FairledgerCapacityScheduler} following
 * the grants). Every few seconds it reads the bursty and steady queues' rho and the cluster's sharing loss from
 * fairledger's books, and writes them as CSV and a PNG plot. The cluster is registered with no capacity of its own:
 * the books' capacity is the NodeManagers' as the bridge reports them. Arguments: the output directory, the run
 * length in seconds (default 420), the runs per set-up (default 2, alternating the set-ups so that a slow spell of
 * the shared machine does not fall on one only), the set-ups (default {@code fair,capacity}) and the memory
 * ({@code bursts}, the default: rounds as long as the time between the two bursts, one starting 10 s before each
 * burst; {@code default}: the server's 24-hour rounds). docs/evaluation.md has the command, the results and why the
 * rounds are set so.
 */
public final class LtrfOnYarnRun {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int TASK_SECONDS = 4;

    private LtrfOnYarnRun() {
    }

    record Sample(double t, Double burstyRho, Double steadyRho, double sharingLoss, String capacity) {
    }

    record Run(String policy, int number, List<Sample> samples) {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "target/ltrf-on-yarn");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 420;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        List<String> setups = List.of((args.length > 3 ? args[3] : "fair,capacity").split(","));
        boolean burstRounds = !(args.length > 4 && args[4].equals("default"));
        Files.createDirectories(out);
        List<Run> runs = new ArrayList<>();
        try (ServerStack stack = ServerStack.start("ltrf-on-yarn", Map.of())) {
            FairledgerServer server = stack.server();
            RealDependency.Running kafka = stack.kafka();
            for (int i = 1; i <= repeats; i++) {
                for (String setup : setups) {
                    runs.add(new Run(setup, i, run(server, kafka, "ltrf-" + setup + "-" + i, setup, burstRounds,
                            seconds, out)));
                    plot(runs, out.resolve("ltrf-on-yarn.png"));
                }
                summary(runs, out.resolve("summary.csv"));
            }
            System.out.println("[ltrf] wrote " + out.toAbsolutePath());
        }
        System.exit(0);
    }

    /**
     * Per run: the end values, and the bursty queue's lowest and highest rho once its burst is booked (from the first
     * sample where its rho left 1, the value of a tenant that never ran): does it reach 1 again, or pass it?
     */
    private static void summary(List<Run> runs, Path csv) throws IOException {
        StringBuilder text = new StringBuilder("policy,run,bursty_rho_end,bursty_rho_min_after_burst,"
                + "bursty_rho_max_after_burst,steady_rho_end,sharing_loss_end,capacity\n");
        for (Run run : runs) {
            Sample last = run.samples().get(run.samples().size() - 1);
            double min = Double.NaN;
            double max = Double.NaN;
            boolean burst = false;
            for (Sample s : run.samples()) {
                Double rho = s.burstyRho();
                burst |= rho != null && rho != 1.0;
                if (burst && rho != null) {
                    min = Double.isNaN(min) ? rho : Math.min(min, rho);
                    max = Double.isNaN(max) ? rho : Math.max(max, rho);
                }
            }
            text.append(String.format(Locale.ROOT, "%s,%d,%s,%s,%s,%s,%.6f,\"%s\"%n", run.policy(), run.number(),
                    last.burstyRho(), min, max, last.steadyRho(), last.sharingLoss(), last.capacity()));
        }
        Files.writeString(csv, text);
        System.out.print("[ltrf] summary\n" + text);
    }

    private static List<Sample> run(FairledgerServer server, RealDependency.Running kafka, String cluster,
            String setup, boolean burstRounds, int seconds, Path out) throws Exception {
        Instant registered = Instant.now().minus(1, ChronoUnit.MINUTES);
        server.register(cluster, "YARN", YarnBridgeIT.settings(registered, 0, 0));
        Map<String, String> keys = new HashMap<>(Map.of(BridgeConfig.CLUSTER, cluster, BridgeConfig.BOOTSTRAP,
                kafka.config().get("kafka.bootstrap.servers"), BridgeConfig.DEMAND_INTERVAL, "1000"));
        if (!setup.equals("yarn-fair")) {
            keys.put(GrantsClient.URL, server.baseUrl());
            keys.put(GrantsClient.POLL_MS, "1000");
        }
        Path dir = Files.createTempDirectory("ltrf-" + cluster);
        List<Sample> samples = new ArrayList<>();
        List<ApplicationId> apps = new ArrayList<>();
        try (MiniYarn yarn = yarn(cluster, setup, keys, dir)) {
            long start = System.currentTimeMillis();
            if (burstRounds) {
                burstRounds(server, cluster, registered, start, seconds);
            }
            apps.add(yarn.submit("root.steady", 2000, 512, 1, TASK_SECONDS));
            boolean first = false;
            boolean second = false;
            while (true) {
                double t = (System.currentTimeMillis() - start) / 1000.0;
                if (t >= seconds) {
                    break;
                }
                if (!first && t >= seconds * 0.3) {
                    apps.add(yarn.submit("root.bursty", 60, 512, 1, TASK_SECONDS));
                    first = true;
                }
                if (!second && t >= seconds * 0.65) {
                    apps.add(yarn.submit("root.bursty", 60, 512, 1, TASK_SECONDS));
                    second = true;
                }
                samples.add(sample(server, cluster, t));
                Thread.sleep(5_000);
            }
            for (ApplicationId id : apps) {
                yarn.kill(id);
            }
        }
        StringBuilder csv = new StringBuilder("seconds,bursty_rho,steady_rho,sharing_loss\n");
        for (Sample s : samples) {
            csv.append(String.format(Locale.ROOT, "%.1f,%s,%s,%.6f%n", s.t(), s.burstyRho(), s.steadyRho(),
                    s.sharingLoss()));
        }
        Files.writeString(out.resolve(cluster + ".csv"), csv);
        Sample last = samples.get(samples.size() - 1);
        System.out.printf(Locale.ROOT, "[ltrf] %s: bursty rho %s, steady rho %s, sharing loss %.4f%n", cluster,
                last.burstyRho(), last.steadyRho(), last.sharingLoss());
        return samples;
    }

    /**
     * Sets the memory to rounds as long as the time between the bursts, one starting 10 s before each burst: the
     * steady queue's use while the bursty one is idle is forgotten at the next burst, the bursty queue's wait for its
     * first containers is not (docs/evaluation.md says why). A change of memory replays the cluster's few seconds of
     * history under it.
     */
    private static void burstRounds(FairledgerServer server, String cluster, Instant registered, long start,
            int seconds) {
        long length = Math.round(seconds * (0.65 - 0.3));
        Instant origin = Instant.ofEpochMilli(start + Math.round(seconds * 0.3 * 1000) - 10_000)
                .truncatedTo(ChronoUnit.SECONDS);
        String settings = YarnBridgeIT.settings(registered, 0, 0);
        Http.expect(200, Http.send("PUT", server.baseUrl() + "/api/v1/admin/clusters/" + cluster
                + "/ledger-settings",
                "{\"memory\":{\"mode\":\"ROUNDS\",\"roundLength\":\"PT" + length
                        + "S\",\"roundOrigin\":\"" + origin + "\"}," + settings.substring(1),
                null));
    }

    private static MiniYarn yarn(String cluster, String setup, Map<String, String> keys, Path dir) {
        return switch (setup) {
            case "yarn-fair" -> new MiniYarn(cluster, keys, YarnBridgeIT.allocations("fair"), dir);
            case "fair" -> new MiniYarn(cluster, keys, YarnBridgeIT.allocations(FairledgerGrantsPolicy.class.getName()),
                    dir);
            case "capacity" -> {
                // the Capacity Scheduler follows the grants by mutating its configuration, which needs a store
                keys.put("yarn.scheduler.configuration.store.class", "memory");
                yield MiniYarn.capacity(cluster, keys, dir);
            }
            default -> throw new IllegalArgumentException("unknown set-up " + setup
                    + " (yarn-fair, fair or capacity)");
        };
    }

    private static Sample sample(FairledgerServer server, String cluster, double t) throws IOException {
        String base = server.baseUrl() + "/api/v1/clusters/" + cluster;
        JsonNode bursty = JSON.readTree(Http.send("GET", base + "/tenants/root.bursty", null).body());
        JsonNode steady = JSON.readTree(Http.send("GET", base + "/tenants/root.steady", null).body());
        JsonNode fairness = JSON.readTree(Http.send("GET", base + "/fairness", null).body());
        return new Sample(t, rho(bursty), rho(steady), fairness.path("sharingLoss").asDouble(Double.NaN),
                fairness.path("capacityVcores").asDouble() + " vcores " + fairness.path("capacityMemoryMb").asLong()
                        + " MB");
    }

    private static Double rho(JsonNode tenant) {
        JsonNode rho = tenant.path("openPeriod").path("rho");
        return rho.isNumber() ? rho.asDouble() : null;
    }

    private static void plot(List<Run> runs, Path png) throws IOException {
        XYChart chart = new XYChartBuilder().width(1000).height(560)
                .title("LTRF on YARN: the bursty queue's rho and the sharing loss, each run")
                .xAxisTitle("seconds").yAxisTitle("rho / sharing loss").build();
        for (boolean rho : new boolean[]{true, false}) {
            for (Run run : runs) {
                series(chart, (rho ? "bursty rho, " : "sharing loss, ") + label(run.policy()) + " #" + run.number(),
                        run.samples(), rho);
            }
        }
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static String label(String setup) {
        return switch (setup) {
            case "yarn-fair" -> "Fair Scheduler, YARN's fair policy";
            case "fair" -> "Fair Scheduler, fairledger's policy";
            default -> "Capacity Scheduler following the grants";
        };
    }

    private static void series(XYChart chart, String name, List<Sample> samples, boolean rho) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (Sample s : samples) {
            Double v = rho ? s.burstyRho() : Double.valueOf(s.sharingLoss());
            if (v != null && Double.isFinite(v)) {
                x.add(s.t());
                y.add(v);
            }
        }
        if (!x.isEmpty()) {
            chart.addSeries(name, x, y);
        }
    }
}
