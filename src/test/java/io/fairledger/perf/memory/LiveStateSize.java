package io.fairledger.perf.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import javax.management.ObjectName;

import io.fairledger.accounting.LedgerFeed;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.live.LiveLedger;
import io.fairledger.live.LiveView;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * Load tool for the server's memory (issue #15, memory): builds one cluster's state as the server keeps it (a
 * {@link LiveLedger} and its published {@link LiveView}) with T leaf tenants under G groups, then N running tasks (YARN
 * containers started and not finished), then P closed daily periods, each released once closed as the server's ledger
 * does when the closer has stored it, and prints the retained heap after forced collections at each step: bytes per
 * tenant (ledger and view without tasks, over the settings alone), per running task (the tasks' increase); then the
 * retained heap, the checkpoint's size and this process's resident memory (VmRSS) after 30 closed periods and after
 * P, which should not differ by more than a few percent, and the top of the heap's class histogram. The facts
 * offered are dropped before each measure, as the server keeps none. Asserts nothing; docs/benchmarks.md has the
 * results.
 *
 * <pre>
 * ./mvnw -B -Pbench test-compile exec:exec -Dbench.jvm="-Xmx512m -XX:+UseG1GC" \
 *     -Dbench.main=io.fairledger.perf.memory.LiveStateSize -Dbench="1000 10000 10 365"
 * </pre>
 */
public final class LiveStateSize {

    private static final String CLUSTER = "bench-memory";
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    /** Tasks start over the first hours of the first day, one fact per distinct instant mostly. */
    private static final long SPREAD_MS = Duration.ofHours(6).toMillis();
    /** Tasks are offered in batches, as the consumer hands them to the live ledger. */
    private static final int BATCH = 500;
    /** The closed periods after which the heap and the checkpoint are measured first, then after all. */
    private static final int FIRST_PERIODS = 30;
    /** The histogram's header lines and its top entries. */
    private static final int HISTOGRAM_LINES = 2 + 15;

    private LiveStateSize() {
    }

    public static void main(String[] args) throws Exception {
        int tenants = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int tasks = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        int groups = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        int periods = args.length > 3 ? Integer.parseInt(args[3]) : 7;
        System.out.printf("%,d leaf tenants under %d groups (%,d tenants with the groups), %,d running tasks, then %d "
                + "daily periods closed; max heap %,d MB%n", tenants, groups, tenants + groups, tasks, periods,
                Runtime.getRuntime().maxMemory() >> 20);

        long empty = retainedHeap();
        LedgerSettings settings = settings(tenants, groups);
        long settingsOnly = retainedHeap();

        long t0 = System.nanoTime();
        LiveLedger ledger = new LiveLedger(CLUSTER, settings, List.of());
        LiveView view = ledger.view(60_000);
        long withTenants = retainedHeap();
        System.out.printf("ledger and view of the tenants built in %,d ms%n", (System.nanoTime() - t0) / 1_000_000);

        t0 = System.nanoTime();
        offerTasks(ledger, tenants, groups, tasks);
        view = ledger.view(60_000);
        long built = (System.nanoTime() - t0) / 1_000_000;
        long withTasks = retainedHeap();
        System.out.printf("%,d tasks applied and view built in %,d ms; %,d tenant accounts in the view%n", tasks,
                built, view.accounts().size());

        t0 = System.nanoTime();
        int first = Math.min(FIRST_PERIODS, periods);
        closePeriods(ledger, 1, first);
        view = ledger.view(60_000);
        long withFirst = retainedHeap();
        int firstCheckpoint = ledger.checkpoint().length;
        String firstRss = status("VmRSS");
        closePeriods(ledger, first + 1, periods);
        view = ledger.view(60_000);
        long closed = (System.nanoTime() - t0) / 1_000_000;
        long withStatements = retainedHeap();
        System.out.printf("%d periods closed and view built in %,d ms%n", periods, closed);

        int allTenants = tenants + groups;
        System.out.printf("retained heap, empty JVM:                  %,8d KB%n", empty >> 10);
        System.out.printf("  + settings (the tenant tree, as stored): %,8d KB%n", (settingsOnly - empty) >> 10);
        System.out.printf("  + ledger and view, no task:              %,8d KB = %,d bytes per tenant%n",
                (withTenants - settingsOnly) >> 10, (withTenants - settingsOnly) / allTenants);
        System.out.printf("  + %,d running tasks:                %,8d KB = %,d bytes per running task%n", tasks,
                (withTasks - withTenants) >> 10, (withTasks - withTenants) / Math.max(1, tasks));
        System.out.printf("after %3d closed periods: retained heap %,8d KB, checkpoint %,d bytes, %s%n", first,
                withFirst >> 10, firstCheckpoint, firstRss);
        System.out.printf("after %3d closed periods: retained heap %,8d KB, checkpoint %,d bytes, %s%n", periods,
                withStatements >> 10, ledger.checkpoint().length, status("VmRSS"));
        System.out.printf("retained heap, all:                        %,8d KB%n", withStatements >> 10);
        System.out.printf("this process: %s, %s%n", status("VmRSS"), status("VmHWM"));
        System.out.println("where the heap goes (GC.class_histogram, top entries):");
        histogram(HISTOGRAM_LINES).forEach(System.out::println);
        // keep both alive until measured
        System.out.printf("(%d facts, %d periods closed)%n", ledger.facts(), periods);
    }

    /** The heap in use after collections no longer free anything (System.gc() until used stops falling). */
    static long retainedHeap() throws InterruptedException {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long last = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            Thread.sleep(100);
            long used = memory.getHeapMemoryUsage().getUsed();
            if (used >= last - (64 << 10) && i >= 2) {
                return Math.min(used, last);
            }
            last = Math.min(used, last);
        }
        return last;
    }

    /** The first {@code lines} lines of the heap's class histogram (jcmd's GC.class_histogram, in process). */
    private static List<String> histogram(int lines) throws Exception {
        String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[]{new String[0]}, new String[]{String[].class.getName()});
        return text.lines().limit(lines).toList();
    }

    private static String status(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith(field + ":")) {
                return line.replaceAll("\\s+", " ");
            }
        }
        return field + ": unknown (no /proc)";
    }

    private static void offerTasks(LiveLedger ledger, int tenants, int groups, int tasks) {
        Random rnd = new Random(15);
        long[] starts = new long[tasks];
        for (int i = 0; i < tasks; i++) {
            starts[i] = START.toEpochMilli() + 1 + (long) (rnd.nextDouble() * SPREAD_MS);
        }
        Arrays.sort(starts);
        List<LedgerFact> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < tasks; i++) {
            String id = "container_" + i;
            var resources = ResourceVector.of(1 + rnd.nextInt(4), 1024L * (1 + rnd.nextInt(8)), 0);
            TenantPath queue = TenantPath.parse(leaf(rnd.nextInt(tenants), groups));
            batch.add(new LedgerFact.Event(new LedgerEvent.TaskStarted(CLUSTER, id, queue, "app_" + i / 50,
                    resources, starts[i]), LedgerFact.taskKey(id, true)));
            // a batch ends between instants: the ledger takes only facts later than every fact it applied
            if (batch.size() >= BATCH && (i + 1 == tasks || starts[i + 1] != starts[i])) {
                offer(ledger, batch);
            }
        }
        offer(ledger, batch);
    }

    /**
     * Closes the daily periods {@code from} to {@code to}: one task finishes two hours into each following day, past the
     * default allowed lateness of one hour, so the ledger closes the day before; then the closer has stored it, and the
     * ledger releases its statement as the server's does ({@link LiveLedger#release}).
     */
    private static void closePeriods(LiveLedger ledger, int from, int to) {
        List<LedgerFact> one = new ArrayList<>(1);
        for (int d = from; d <= to; d++) {
            String id = "container_" + d;
            long at = START.plus(Duration.ofDays(d)).plus(Duration.ofHours(2)).toEpochMilli();
            one.add(new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, id, at),
                    LedgerFact.taskKey(id, false)));
            offer(ledger, one);
            ledger.release(START.plus(Duration.ofDays(d)));
        }
    }

    private static void offer(LiveLedger ledger, List<LedgerFact> batch) {
        batch.sort(LedgerFeed.ORDER);
        if (!ledger.offer(batch)) {
            throw new IllegalStateException("facts out of order");
        }
        batch.clear();
    }

    private static String leaf(int i, int groups) {
        return "root.g" + (i % groups) + ".q" + i;
    }

    private static LedgerSettings settings(int tenants, int groups) {
        List<LedgerSettings.Tenant> list = new ArrayList<>(tenants + groups);
        for (int g = 0; g < groups; g++) {
            list.add(new LedgerSettings.Tenant("root.g" + g, 1, null, ""));
        }
        for (int q = 0; q < tenants; q++) {
            list.add(new LedgerSettings.Tenant(leaf(q, groups), 1 + q % 3, null, ""));
        }
        return new LedgerSettings(START, new LedgerSettings.Capacity(400_000, 1_638_400_000L, 0), null, null, null,
                null, new PeriodSettings(null, Duration.ofDays(1)), null,
                new LedgerSettings.Chargeback(ChargeModel.USAGE, List.of(new LedgerSettings.Plan("std",
                        new BigDecimal("0.04"), new BigDecimal("0.005"), BigDecimal.ONE)), "std", null, 2, null),
                list);
    }
}
