package io.fairledger.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.replay.ReplayConfig;

/**
 * The settings' {@code earlier} as the server writes it, each entry's tenants as the differences from the next
 * ({@link SettingsSegment}), replays exactly what the whole tenant lists of every entry replayed, whatever the changes:
 * weights, new tenants, discount rates and prices, at a later instant, at the same instant again, at an instant before
 * earlier changes ended (their entries dropped), with documents stored by an earlier version (whole lists) among them.
 * And a change of one weight among 10,000 tenants stores that weight, not 10,000 tenants.
 */
class SettingsSegmentProperties {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private static final Instant REGISTERED = Instant.parse("2026-03-01T00:00:00Z");
    private static final List<String> PATHS = List.of("root.a", "root.a.x", "root.a.y", "root.b", "root.c", "root.d");

    /** An entry of {@code earlier} as the settings used to keep it: every tenant. */
    private record Whole(Instant until, Double discountRate, LedgerSettings.Chargeback chargeback,
            List<LedgerSettings.Tenant> tenants) {
        SettingsSegment segment() {
            return new SettingsSegment(discountRate, chargeback, tenants, null, null, until);
        }

        boolean says(LedgerSettings s) {
            return Objects.equals(discountRate, s.discountRate()) && Objects.equals(chargeback, s.chargeback())
                    && tenants.equals(s.tenants());
        }
    }

    @Property(tries = 500)
    void theDifferencesReplayWhatTheWholeListsReplayed(@ForAll long seed) {
        Random random = new Random(seed);
        TreeMap<String, LedgerSettings.Tenant> tree = new TreeMap<>();
        tree.put("root.a", new LedgerSettings.Tenant("root.a", 1, null, ""));
        LedgerSettings current = settings(0.5, null, tree);
        List<Whole> model = new ArrayList<>();
        long latest = REGISTERED.toEpochMilli();
        LedgerSettings lastSettings = null;
        ReplayConfig lastConfig = null;
        Map<LedgerSettings.Tenant, TenantConfig> configs = new IdentityHashMap<>();
        for (int step = 0; step < 12; step++) {
            // what changes: weights, an override, a new tenant, the discount rate, the prices
            double rate = random.nextInt(4) == 0 ? random.nextInt(11) / 10.0 : current.discountRate();
            LedgerSettings.Chargeback prices = random.nextInt(4) == 0
                    ? prices(random.nextInt(3))
                    : current.chargeback();
            int edits = random.nextInt(3);
            for (int i = 0; i < edits; i++) {
                String path = PATHS.get(random.nextInt(PATHS.size()));
                tree.put(path, new LedgerSettings.Tenant(path, random.nextInt(4),
                        random.nextBoolean() ? null : random.nextInt(5) / 4.0, ""));
            }
            LedgerSettings next = settings(rate, prices, tree);
            // when: later, at the same instant again, or before changes that ended later (rarely: a restore)
            long at = switch (random.nextInt(5)) {
                case 0 -> latest;
                case 1 ->
                    REGISTERED.toEpochMilli() + 1 + random.nextInt((int) (latest - REGISTERED.toEpochMilli()) + 1);
                default -> latest + 1 + random.nextInt(3_600_000);
            };
            latest = Math.max(latest, at);
            Instant effective = Instant.ofEpochMilli(at);
            if (random.nextInt(5) == 0) {
                // as an earlier version stored them: every entry with its whole tenant list
                current = withEarlier(current, model.stream().map(Whole::segment).toList());
            }
            LedgerSettings before = current;
            current = stored(next.replacing("c", before, effective), next.tenants());
            model = replaced(model, before, next, effective);
            ReplayConfig config = current.toReplayConfig("c", Instant.ofEpochMilli(latest));
            assertThat(config).as("step %d, seed %d", step, seed)
                    .isEqualTo(withEarlier(next, model.stream().map(Whole::segment).toList())
                            .toReplayConfig("c", Instant.ofEpochMilli(latest)));
            // as a live ledger configures them: from the settings configured before (whatever they were)
            ReplayConfig taken = current.toReplayConfig("c", Instant.ofEpochMilli(latest), configs, lastSettings,
                    lastConfig);
            assertThat(taken).as("taken from the step before, step %d, seed %d", step, seed).isEqualTo(config);
            lastSettings = current;
            lastConfig = taken;
        }
    }

    @Test
    void oneWeightAmongTenThousandTenantsStoresThatWeight() throws JsonProcessingException {
        TreeMap<String, LedgerSettings.Tenant> tree = new TreeMap<>();
        for (int i = 0; i < 10_000; i++) {
            tree.put("root.q" + i, new LedgerSettings.Tenant("root.q" + i, 1, null, ""));
        }
        LedgerSettings current = settings(0.5, null, tree);
        for (int change = 1; change <= 20; change++) {
            String path = "root.q" + (change * 7919 % 10_000);
            tree.put(path, new LedgerSettings.Tenant(path, 1 + change, null, ""));
            LedgerSettings next = settings(0.5, null, tree);
            current = stored(next.replacing("c", current, REGISTERED.plusSeconds(60L * change)), next.tenants());
        }
        String document = JSON.writeValueAsString(current.withTenants(null));
        assertThat(current.earlier()).hasSize(20);
        assertThat(current.earlier()).allSatisfy(e -> assertThat(e.changed()).hasSize(1));
        assertThat(document.length()).as(document).isLessThan(20 * 150 + 500);
    }

    @Test
    void aChangeAtANewInstantTakesTheSegmentsOfTheChangesBeforeIt() {
        TreeMap<String, LedgerSettings.Tenant> tree = new TreeMap<>();
        for (int i = 0; i < 1_000; i++) {
            tree.put("root.q" + i, new LedgerSettings.Tenant("root.q" + i, 1, null, ""));
        }
        LedgerSettings current = settings(0.5, null, tree);
        Instant until = REGISTERED.plusSeconds(3_600);
        Map<LedgerSettings.Tenant, TenantConfig> configs = new IdentityHashMap<>();
        ReplayConfig config = current.toReplayConfig("c", until, configs, null, null);
        for (int change = 1; change <= 10; change++) {
            String path = "root.q" + (change * 7919 % 1_000);
            tree.put(path, new LedgerSettings.Tenant(path, 1 + change, null, ""));
            LedgerSettings next = settings(0.5, null, tree);
            LedgerSettings before = current;
            current = stored(next.replacing("c", current, REGISTERED.plusSeconds(60L * change)), next.tenants());
            ReplayConfig taken = current.toReplayConfig("c", until, configs, before, config);
            assertThat(taken).isEqualTo(current.toReplayConfig("c", until));
            assertThat(taken.changes()).hasSize(change);
            for (int i = 0; i < change - 2; i++) {
                // the entries before the one the change rewrote: their segments as configured before
                assertThat(taken.changes().get(i)).as("change %d, segment %d", change, i + 1)
                        .isSameAs(config.changes().get(i));
            }
            config = taken;
        }
    }

    /**
     * Settings written otherwise than by a change of the ones configured before (by hand, or restored) whose entry after
     * the shared ones says other tenants than the settings before said: that segment is configured again, not taken.
     */
    @Test
    void aSegmentThatSaysOtherTenantsThanTheSettingsBeforeIsConfiguredAgain() {
        TreeMap<String, LedgerSettings.Tenant> tree = new TreeMap<>();
        tree.put("root.a", new LedgerSettings.Tenant("root.a", 1, null, ""));
        tree.put("root.b", new LedgerSettings.Tenant("root.b", 2, null, ""));
        LedgerSettings first = settings(0.5, null, tree);
        Instant until = REGISTERED.plusSeconds(3_600);
        tree.put("root.b", new LedgerSettings.Tenant("root.b", 3, null, ""));
        LedgerSettings before = stored(settings(0.5, null, tree).replacing("c", first, REGISTERED.plusSeconds(60)),
                List.copyOf(tree.values()));
        Map<LedgerSettings.Tenant, TenantConfig> configs = new IdentityHashMap<>();
        ReplayConfig beforeConfig = before.toReplayConfig("c", until, configs, null, null);
        // the entries before's, then one that gives root.b weight 4 where before gave it 3 until the next change
        List<SettingsSegment> earlier = new ArrayList<>(before.earlier());
        earlier.add(new SettingsSegment(0.5, null, List.of(tree.get("root.a"),
                new LedgerSettings.Tenant("root.b", 4, null, "")), null, null, REGISTERED.plusSeconds(120)));
        tree.put("root.b", new LedgerSettings.Tenant("root.b", 5, null, ""));
        LedgerSettings written = withEarlier(settings(0.5, null, tree), earlier);

        ReplayConfig taken = written.toReplayConfig("c", until, configs, before, beforeConfig);
        assertThat(taken).isEqualTo(written.toReplayConfig("c", until));
        assertThat(taken.changes().get(0).cluster().tenants().get(1).weight()).isEqualTo(4);
    }

    @Test
    void tenantsTheDifferencesCannotSayAreKeptWhole() {
        LedgerSettings.Tenant a = new LedgerSettings.Tenant("root.a", 1, null, "");
        LedgerSettings.Tenant b = new LedgerSettings.Tenant("root.b", 2, null, "");
        LedgerSettings.Tenant b3 = new LedgerSettings.Tenant("root.b", 3, null, "");
        Instant until = REGISTERED.plusSeconds(60);
        SettingsSegment differences = SettingsSegment.of(0.5, null, List.of(a, b), List.of(a, b3,
                new LedgerSettings.Tenant("root.c", 1, null, "")), until);
        assertThat(differences.tenants()).isNull();
        assertThat(differences.changed()).containsExactly(b);
        assertThat(differences.added()).containsExactly("root.c");
        assertThat(differences.tenantsBefore(List.of(a, b3, new LedgerSettings.Tenant("root.c", 1, null, ""))))
                .containsExactly(a, b);
        // a hand-written document dropped root.b, or listed the tenants in another order: the whole list
        assertThat(SettingsSegment.of(0.5, null, List.of(a, b), List.of(a), until).tenants()).containsExactly(a, b);
        assertThat(SettingsSegment.of(0.5, null, List.of(b, a), List.of(a, b), until).tenants()).containsExactly(b, a);
        assertThat(SettingsSegment.of(0.5, null, List.of(b, a), List.of(a, b), until).tenantsBefore(List.of(a)))
                .containsExactly(b, a);
    }

    /**
     * The rules of {@link LedgerSettings#replacing} over whole lists, as they were written before the differences: the
     * entries that ended by {@code effective}, then {@code before} until {@code effective} unless it says what
     * {@code next} says; an entry ending at {@code effective} that says what {@code next} says goes on; none when the
     * change takes effect from the registration.
     */
    private static List<Whole> replaced(List<Whole> model, LedgerSettings before, LedgerSettings next,
            Instant effective) {
        List<Whole> out = new ArrayList<>();
        if (!effective.isAfter(REGISTERED)) {
            return out;
        }
        for (Whole w : model) {
            if (!w.until().isAfter(effective)) {
                out.add(w);
            }
        }
        Instant lastUntil = out.isEmpty() ? REGISTERED : out.get(out.size() - 1).until();
        Whole mine = new Whole(effective, before.discountRate(), before.chargeback(), before.tenants());
        if (lastUntil.isBefore(effective) && !mine.says(next)) {
            out.add(mine);
        }
        while (!out.isEmpty() && out.get(out.size() - 1).until().equals(effective)
                && out.get(out.size() - 1).says(next)) {
            out.remove(out.size() - 1);
        }
        return out;
    }

    /** {@code settings} as the server keeps them after storing: read back from their text, with their tenants. */
    private static LedgerSettings stored(LedgerSettings settings, List<LedgerSettings.Tenant> tenants) {
        try {
            return JSON.readValue(JSON.writeValueAsString(settings.withTenants(null)), LedgerSettings.class)
                    .withTenants(tenants);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }

    private static LedgerSettings settings(double rate, LedgerSettings.Chargeback prices,
            TreeMap<String, LedgerSettings.Tenant> tree) {
        return new LedgerSettings(REGISTERED, new LedgerSettings.Capacity(10, 10_240, 0), rate, null, null, null, null,
                null, prices, List.copyOf(tree.values()));
    }

    private static LedgerSettings withEarlier(LedgerSettings s, List<SettingsSegment> earlier) {
        return new LedgerSettings(s.registeredAt(), s.capacity(), s.discountRate(), s.memory(), s.par(),
                s.rootQuantum(), s.period(), s.allowedLateness(), s.chargeback(), s.tenants(),
                earlier.isEmpty() ? null : earlier);
    }

    private static LedgerSettings.Chargeback prices(int cents) {
        return new LedgerSettings.Chargeback(ChargeModel.USAGE, List.of(new LedgerSettings.Plan("p",
                BigDecimal.valueOf(cents, 2), BigDecimal.ZERO, BigDecimal.ZERO)), "p", null, null, null);
    }
}
