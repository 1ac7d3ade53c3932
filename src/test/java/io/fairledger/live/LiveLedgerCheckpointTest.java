package io.fairledger.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import io.fairledger.accounting.LedgerFeed;
import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.PeriodSettings;

/**
 * The live ledger's checkpoints through the server's own path (facts, {@link LedgerFeed}, canonical order, the live
 * ledger's in-place application): facts arrive in batches, late and twice; a duplicate delivery is dropped as the
 * store's key drops it; checkpoints are taken at random points, also in the middle of a rebuild; a late fact rebuilds
 * from the newest checkpoint that holds no fact at or after its event time, plus the stored facts after it, exactly as
 * {@link BoundedReplays} does on the stored ones. At the end the ledger equals one built from every stored fact at
 * once: same state bytes, same view (accounts, fairness, grants, open statement).
 */
class LiveLedgerCheckpointTest {

    private static final String CLUSTER = "c";
    private static final List<String> LEAVES = List.of("root.a", "root.b", "root.c.x", "root.c.y", "root.z");

    @Provide
    Arbitrary<LedgerSettings.Memory> memory() {
        return Arbitraries.of(new LedgerSettings.Memory("FULL", null, null, null),
                new LedgerSettings.Memory("ROUNDS", Duration.ofSeconds(20), Instant.ofEpochMilli(3_000), null),
                new LedgerSettings.Memory("DECAY", null, null, Duration.ofSeconds(30)));
    }

    static LedgerSettings settings(LedgerSettings.Memory memory, ParPolicy par, ChargeModel model) {
        var chargeback = new LedgerSettings.Chargeback(model,
                List.of(new LedgerSettings.Plan("std", new BigDecimal("0.7"), new BigDecimal("0.05"),
                        new BigDecimal("2.5"))),
                "std", new BigDecimal("12.34"), 2, "EUR");
        List<LedgerSettings.Tenant> tenants = List.of(new LedgerSettings.Tenant("root.a", 1, null, ""),
                new LedgerSettings.Tenant("root.b", 2, null, ""), new LedgerSettings.Tenant("root.c", 1, 0.25, ""),
                new LedgerSettings.Tenant("root.c.x", 1, null, ""), new LedgerSettings.Tenant("root.c.y", 3, null, ""),
                new LedgerSettings.Tenant("root.z", 0, null, ""));
        return new LedgerSettings(Instant.EPOCH, new LedgerSettings.Capacity(20, 20480, 1), 0.5, memory, par,
                Duration.ofMillis(500), new PeriodSettings(null, Duration.ofSeconds(15)), null, chargeback,
                tenants);
    }

    /** A checkpoint as the store keeps it: the last applied instant, the horizon (batch) it was made at, the state. */
    private record Stored(long at, int horizon, byte[] state) {
    }

    /** A fact as the store keeps it: with the batch (transaction) that stored it. */
    private record Row(LedgerFact fact, int tx) {
    }

    @Property(tries = 200)
    void checkpointsAndBoundedRebuildsEqualTheFullReplay(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 160) int count, @ForAll("memory") LedgerSettings.Memory memory,
            @ForAll ParPolicy par, @ForAll ChargeModel model) {
        LedgerSettings settings = settings(memory, par, model);
        Random rnd = new Random(seed);
        List<LedgerFact> arrivals = arrivals(facts(rnd, count), rnd);

        Map<String, Row> store = new LinkedHashMap<>();
        List<Stored> checkpoints = new ArrayList<>();
        LiveLedger ledger = new LiveLedger(CLUSTER, settings, List.of());
        int fromCheckpoint = 0;
        int tx = 0;
        for (int i = 0; i < arrivals.size(); tx++) {
            int end = Math.min(arrivals.size(), i + 1 + rnd.nextInt(6));
            List<LedgerFact> fresh = new ArrayList<>();
            for (LedgerFact f : arrivals.subList(i, end)) {
                if (store.putIfAbsent(f.dedupeKey(), new Row(f, tx)) == null) {
                    fresh.add(f);
                }
            }
            i = end;
            int horizon = tx + 1;
            if (!ledger.offer(fresh)) {
                Stored from = newestUsable(checkpoints, store, horizon);
                fromCheckpoint += from == null ? 0 : 1;
                ledger = rebuild(settings, from, store, horizon, checkpoints, rnd);
            }
            ledger.view(10_000);
            if (rnd.nextInt(3) == 0) {
                checkpoints.add(new Stored(ledger.lastApplied(), horizon, ledger.checkpoint()));
            }
        }
        Statistics.label("rebuilt from a checkpoint").collect(fromCheckpoint > 0);

        LiveLedger full = new LiveLedger(CLUSTER, settings, store.values().stream().map(Row::fact).toList());
        assertThat(ledger.checkpoint()).isEqualTo(full.checkpoint());
        assertThat(ledger.facts()).isEqualTo(full.facts());
        LiveView expected = full.view(10_000);
        LiveView actual = ledger.view(10_000);
        assertThat(LiveViewValues.of(actual)).usingRecursiveComparison()
                .withComparatorForType(Double::compare, Double.class).isEqualTo(LiveViewValues.of(expected));
        assertThat(actual.openStatement()).isEqualTo(expected.openStatement());
        assertThat(actual.accounts()).isEqualTo(expected.accounts());
        assertThat(ledger.checkpoint()).as("after the views").isEqualTo(full.checkpoint());
    }

    /**
     * The newest checkpoint made at or before {@code horizon} that lacks no stored fact: none stored at or after its
     * horizon is at or before its instant.
     */
    private static Stored newestUsable(List<Stored> checkpoints, Map<String, Row> store, int horizon) {
        Stored best = null;
        for (Stored c : checkpoints) {
            boolean lacks = store.values().stream()
                    .anyMatch(r -> r.tx() >= c.horizon() && r.tx() < horizon && r.fact().at() <= c.at());
            if (!lacks && c.horizon() <= horizon && (best == null || c.at() > best.at())) {
                best = c;
            }
        }
        return best;
    }

    /** The checkpoint (or a fresh ledger) plus the stored facts after it, one instant at a time, in event order. */
    private static LiveLedger rebuild(LedgerSettings settings, Stored from, Map<String, Row> store, int horizon,
            List<Stored> checkpoints, Random rnd) {
        LiveLedger ledger = from == null
                ? new LiveLedger(CLUSTER, settings, List.of())
                : LiveLedger.restore(CLUSTER, settings, from.state());
        long after = ledger.lastApplied();
        List<LedgerFact> tail = store.values().stream().filter(r -> r.tx() < horizon && r.fact().at() > after)
                .map(Row::fact).sorted(LedgerFeed.ORDER).toList();
        int i = 0;
        while (i < tail.size()) {
            int j = i;
            while (j < tail.size() && tail.get(j).at() == tail.get(i).at()) {
                j++;
            }
            assertThat(ledger.offer(tail.subList(i, j))).isTrue();
            if (rnd.nextInt(4) == 0) {
                checkpoints.add(new Stored(ledger.lastApplied(), horizon, ledger.checkpoint()));
            }
            i = j;
        }
        return ledger;
    }

    /** Facts in event-time order: tasks, node capacities, applications' demand, weights, a repeated start. */
    private static List<LedgerFact> facts(Random rnd, int count) {
        List<LedgerFact> out = new ArrayList<>();
        List<String> running = new ArrayList<>();
        long t = 1;
        int next = 0;
        for (int i = 0; i < count; i++) {
            t += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(1500);
            TenantPath leaf = TenantPath.parse(LEAVES.get(rnd.nextInt(LEAVES.size())));
            int kind = rnd.nextInt(12);
            if (kind < 5 || running.isEmpty()) {
                String id = "t" + next++;
                var v = new ResourceVector(250L * (1 + rnd.nextInt(16)), 256L * rnd.nextInt(16),
                        rnd.nextInt(8) == 0 ? 1 : 0);
                out.add(new LedgerFact.Event(
                        new LedgerEvent.TaskStarted(CLUSTER, id, leaf, "app" + rnd.nextInt(2), v, t),
                        "task:" + id + ":start"));
                running.add(id);
            } else if (kind < 8) {
                String id = running.remove(rnd.nextInt(running.size()));
                out.add(new LedgerFact.Event(new LedgerEvent.TaskFinished(CLUSTER, id, t), "task:" + id + ":finish"));
            } else if (kind < 9) {
                out.add(new LedgerFact.Demand(CLUSTER, leaf.toString(), "x" + rnd.nextInt(2),
                        ResourceVector.of(rnd.nextInt(5), 0, 0), t, "event:d" + i));
            } else if (kind < 10) {
                out.add(new LedgerFact.NodeCapacity(CLUSTER, "n" + rnd.nextInt(3),
                        rnd.nextBoolean() ? ResourceVector.of(4 + rnd.nextInt(8), 4096, 0) : ResourceVector.ZERO, t,
                        "event:n" + i));
            } else if (kind < 11) {
                out.add(new LedgerFact.Event(new LedgerEvent.WeightChanged(CLUSTER, leaf, rnd.nextInt(4), t),
                        "event:w" + i));
            } else {
                String id = running.get(rnd.nextInt(running.size()));
                out.add(new LedgerFact.Event(
                        new LedgerEvent.TaskStarted(CLUSTER, id, leaf, "", ResourceVector.of(1, 0, 0), t),
                        "event:again" + i));
            }
        }
        return out;
    }

    /** {@code facts} in arrival order: some held back (late), some delivered twice. */
    private static List<LedgerFact> arrivals(List<LedgerFact> facts, Random rnd) {
        List<LedgerFact> out = new ArrayList<>(facts);
        for (int k = 0; k < 1 + facts.size() / 8; k++) {
            int from = rnd.nextInt(out.size());
            int to = Math.min(out.size() - 1, from + 1 + rnd.nextInt(25));
            out.add(to, out.remove(from));
        }
        for (int k = 0; k < 1 + facts.size() / 10; k++) {
            int from = rnd.nextInt(out.size());
            out.add(Math.min(out.size(), from + rnd.nextInt(30)), out.get(from));
        }
        return out;
    }

    @Test
    void everyFieldOfTheLiveLedgerAndItsFeedIsInTheCheckpoint() {
        // currency and settings are the live settings given on restore, clusterId given: configuration, not state;
        // tenantConfigs is a cache of the settings' tenants' configurations, filled again at the next change;
        // lastCheckpointBytes only sizes the next checkpoint's buffer; closedUntilMs is what the closer stored, asked
        // again by a restored ledger (it holds an ended period until told)
        assertThat(fields(LiveLedger.class)).containsExactlyInAnyOrder("clusterId", "replay", "feed", "lastApplied",
                "facts", "currency", "settings", "tenantConfigs", "lastCheckpointBytes", "closedUntilMs");
        assertThat(fields(LedgerFeed.class)).containsExactlyInAnyOrder("base", "nodes");
    }

    private static List<String> fields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields()).filter(f -> !Modifier.isStatic(f.getModifiers()))
                .map(Field::getName).toList();
    }

    @Test
    void aCheckpointOfAnotherVersionOrOtherSettingsIsRefused() {
        LedgerSettings settings = settings(new LedgerSettings.Memory("FULL", null, null, null), ParPolicy.MAX,
                ChargeModel.USAGE);
        LiveLedger ledger = new LiveLedger(CLUSTER, settings, List.of(new LedgerFact.Event(
                new LedgerEvent.TaskStarted(CLUSTER, "t", TenantPath.parse("root.a"), "", ResourceVector.of(1, 0, 0),
                        5),
                "task:t:start")));
        byte[] state = ledger.checkpoint();
        LedgerSettings other = settings(new LedgerSettings.Memory("FULL", null, null, null), ParPolicy.MIN,
                ChargeModel.USAGE);
        assertThat(LiveLedger.settingsVersion(CLUSTER, other)).isNotEqualTo(ledger.settingsVersion());
        assertThatThrownBy(() -> LiveLedger.restore(CLUSTER, other, state))
                .hasMessageContaining("made under settings version " + ledger.settingsVersion());
        state[4] = 99;
        assertThatThrownBy(() -> LiveLedger.restore(CLUSTER, settings, state))
                .hasMessageContaining("format version 99 is unknown");
    }
}
