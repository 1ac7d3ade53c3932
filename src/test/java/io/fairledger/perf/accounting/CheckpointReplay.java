package io.fairledger.perf.accounting;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.zip.Deflater;

import io.fairledger.accounting.LedgerFeed;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.live.LiveLedger;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * Load tool for bounded replays (issue #15, checkpoints): builds a cluster's live ledger from N synthetic facts (YARN
 * containers of 100 queues over 20 days, a start and a finish each, daily periods) the way the server does, then
 * prints the time of a full replay against restoring a checkpoint taken at the last period close and replaying the
 * facts after it (one instant at a time, as {@code live.BoundedReplays} does), the checkpoint's size, and that both
 * end in the same state. In memory only: the database's part (reading the tail through the cursor) is not in these
 * figures. Asserts nothing; docs/benchmarks.md has the results.
 *
 * <pre>
 * ./mvnw -B -Pbench test-compile exec:exec -Dbench.main=io.fairledger.perf.accounting.CheckpointReplay -Dbench="1000000 100"
 * </pre>
 */
public final class CheckpointReplay {

    private static final String CLUSTER = "bench-checkpoint";
    private static final Instant START = Instant.parse("2026-11-01T00:00:00Z");
    private static final int DAYS = 20;
    private static final int ROUNDS = 3;

    private CheckpointReplay() {
    }

    public static void main(String[] args) {
        int facts = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int tenants = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        LedgerSettings settings = settings(tenants);
        List<LedgerFact> all = facts(facts, tenants);
        long lastDay = START.plus(Duration.ofDays(DAYS - 1)).toEpochMilli();
        List<LedgerFact> head = all.stream().filter(f -> f.at() < lastDay).toList();
        List<LedgerFact> tail = all.stream().filter(f -> f.at() >= lastDay).toList();
        System.out.printf("%,d facts, %d tenants, %d daily periods; checkpoint at the start of the last day, "
                + "%,d facts after it; %d rounds each%n", all.size(), tenants, DAYS, tail.size(), ROUNDS);

        long[] full = new long[ROUNDS];
        LiveLedger expected = null;
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            expected = new LiveLedger(CLUSTER, settings, all);
            full[r] = System.nanoTime() - t0;
        }
        byte[] state = new LiveLedger(CLUSTER, settings, head).checkpoint();
        long[] write = new long[ROUNDS];
        long[] restore = new long[ROUNDS];
        long[] bounded = new long[ROUNDS];
        LiveLedger restored = null;
        for (int r = 0; r < ROUNDS; r++) {
            LiveLedger before = new LiveLedger(CLUSTER, settings, head);
            long t0 = System.nanoTime();
            state = before.checkpoint();
            write[r] = System.nanoTime() - t0;
            t0 = System.nanoTime();
            restored = LiveLedger.restore(CLUSTER, settings, state);
            restore[r] = System.nanoTime() - t0;
            replayByInstant(restored, tail);
            bounded[r] = System.nanoTime() - t0;
        }
        System.out.printf("full replay of every fact:               %s%n", millis(full));
        System.out.printf("write the checkpoint:                    %s%n", millis(write));
        System.out.printf("restore the checkpoint:                  %s%n", millis(restore));
        System.out.printf("restore + replay the %,d facts after it: %s%n", tail.size(), millis(bounded));
        System.out.printf("checkpoint size: %,d bytes (%,d deflated)%n", state.length, deflated(state));
        System.out.printf("same state as the full replay: %b%n",
                Arrays.equals(restored.checkpoint(), expected.checkpoint()));
    }

    /** Applies {@code facts} (in feed order) one instant at a time. */
    private static void replayByInstant(LiveLedger ledger, List<LedgerFact> facts) {
        List<LedgerFact> instant = new ArrayList<>();
        for (LedgerFact f : facts) {
            if (!instant.isEmpty() && instant.get(0).at() != f.at()) {
                offer(ledger, instant);
            }
            instant.add(f);
        }
        offer(ledger, instant);
    }

    private static void offer(LiveLedger ledger, List<LedgerFact> instant) {
        if (!ledger.offer(instant)) {
            throw new IllegalStateException("facts out of order");
        }
        instant.clear();
    }

    private static String millis(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        StringBuilder out = new StringBuilder("median ").append(sorted[sorted.length / 2] / 1_000_000).append(" ms (");
        for (int i = 0; i < nanos.length; i++) {
            out.append(i == 0 ? "" : ", ").append(nanos[i] / 1_000_000);
        }
        return out.append(')').toString();
    }

    private static int deflated(byte[] bytes) {
        Deflater deflater = new Deflater();
        deflater.setInput(bytes);
        deflater.finish();
        byte[] buffer = new byte[1 << 16];
        int size = 0;
        while (!deflater.finished()) {
            size += deflater.deflate(buffer);
        }
        deflater.end();
        return size;
    }

    private static LedgerSettings settings(int tenants) {
        List<LedgerSettings.Tenant> list = new ArrayList<>();
        for (int q = 0; q < tenants; q++) {
            list.add(new LedgerSettings.Tenant("root.q" + q, 1 + q % 3, null, ""));
        }
        return new LedgerSettings(START, new LedgerSettings.Capacity(2_000, 8_192_000, 0), null, null, null, null,
                new PeriodSettings(null, Duration.ofDays(1)), null,
                new LedgerSettings.Chargeback(ChargeModel.USAGE, List.of(new LedgerSettings.Plan("std",
                        new BigDecimal("0.04"), new BigDecimal("0.005"), BigDecimal.ONE)), "std", null, 2, null),
                list);
    }

    /** {@code count} facts, in feed order: containers of 1 minute to 2 hours, a start and a finish each. */
    private static List<LedgerFact> facts(int count, int tenants) {
        Random rnd = new Random(15);
        long span = Duration.ofDays(DAYS).toMillis() - Duration.ofHours(3).toMillis();
        List<LedgerFact> out = new ArrayList<>(count);
        for (int i = 0; out.size() < count; i++) {
            String id = "container_" + i;
            long start = START.toEpochMilli() + (long) (rnd.nextDouble() * span);
            long end = start + 60_000 + rnd.nextInt(7_200_000);
            var resources = ResourceVector.of(1 + rnd.nextInt(4), 1024L * (1 + rnd.nextInt(8)), 0);
            TenantPath queue = TenantPath.parse("root.q" + rnd.nextInt(tenants));
            out.add(new LedgerFact.Event(new LedgerEvent.TaskStarted(CLUSTER, id, queue, "app_" + i / 50, resources,
                    start), LedgerFact.taskKey(id, true)));
            out.add(new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, id, end),
                    LedgerFact.taskKey(id, false)));
        }
        out.sort(LedgerFeed.ORDER);
        return out;
    }
}
