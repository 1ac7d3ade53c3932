package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.model.UsageMeasure;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.Schedule;
import io.fairledger.errors.Invalid;

/**
 * How a cluster's books are kept, as one JSON document: the {@code --config} file of {@code fairledger account} and
 * the body of the admin API's ledger settings, so the server and the offline command run the core under exactly the
 * same configuration. Every field but {@code registeredAt} and {@code capacity} has a default (docs/domain.md): no
 * discount, ROUNDS of 24 h, PAR MAX, dominant share, no quantum, daily periods from registration, USAGE at zero prices.
 * Periods: {@link PeriodSettings}.
 *
 * @param registeredAt    when accounting starts: FULL memory and the first period start here
 * @param allowedLateness the server closes a period once it has seen an event this long after the period's end
 *                        (default 1 h); later events for it become adjustments. The offline command has all events
 *                        at once and ignores it.
 * @param capacity     capacity at registration; capacity events change it later
 * @param tenants      configured tenants: the server creates or updates each in its tenant tree (its weight and
 *                     discount-rate override) and keeps the tree, not this list; a what-if's settings and the offline
 *                     command take them as the tenant tree
 * @param earlier      the tenants, discount rate and prices in force before these, oldest first, each with the
 *                     instant {@code until} it ended ({@link SettingsSegment}; the server keeps them:
 *                     {@link #replacing}); empty, these hold from the registration. A change is prospective: the
 *                     ledger takes it at its instant as it takes weight-change events, and keeps what it integrated
 *                     before (docs/domain.md)
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LedgerSettings(Instant registeredAt, Capacity capacity, Double discountRate, Memory memory,
        ParPolicy par, Duration rootQuantum, PeriodSettings period, Duration allowedLateness, Chargeback chargeback,
        List<Tenant> tenants, List<SettingsSegment> earlier) {

    /** How long after a period's end events for it are still awaited before the server closes it, by default. */
    public static final Duration DEFAULT_ALLOWED_LATENESS = Duration.ofHours(1);

    /** Capacity in whole or fractional vcores (stored exactly as millicores), MB and GPUs. */
    public record Capacity(double vcores, long memoryMb, long gpus) {
        ResourceVector toVector() {
            return ResourceVector.ofMillicores(Math.round(vcores * 1000), memoryMb, gpus);
        }
    }

    /** {@code FULL}, {@code ROUNDS} (roundLength, roundOrigin) or {@code DECAY} (halfLife). */
    public record Memory(String mode, Duration roundLength, Instant roundOrigin, Duration halfLife) {
        MemoryMode toMode() {
            return switch (mode == null ? "ROUNDS" : mode) {
                case "FULL" -> new MemoryMode.Full();
                case "ROUNDS" -> new MemoryMode.Rounds(
                        (roundLength == null ? Duration.ofHours(24) : roundLength).toMillis(),
                        roundOrigin == null ? 0 : roundOrigin.toEpochMilli());
                case "DECAY" -> {
                    if (halfLife == null) {
                        throw new IllegalArgumentException("memory mode DECAY needs halfLife (e.g. \"P7D\")");
                    }
                    yield new MemoryMode.Decay(halfLife.toMillis());
                }
                default -> throw new IllegalArgumentException(
                        "memory.mode must be FULL, ROUNDS or DECAY, got '" + mode + "'");
            };
        }
    }

    /**
     * USAGE (plans, defaultPlan) or GROUP_BUY (costPerPeriod); money in {@code currencyScale} decimals of
     * {@code currency}, an ISO 4217 code (default {@value #DEFAULT_CURRENCY}, ISO's "no currency").
     */
    public record Chargeback(ChargeModel model, List<Plan> plans, String defaultPlan, BigDecimal costPerPeriod,
            Integer currencyScale, String currency) {
    }

    /** The currency of settings that name none: ISO 4217's code for "no currency is involved". */
    public static final String DEFAULT_CURRENCY = "XXX";

    /**
     * The period schedule ({@link #toReplayConfig}'s {@code periods()}), without building the tenants' configuration.
     */
    public Schedule schedule() {
        return PeriodSettings.schedule(period, registeredAt);
    }

    /**
     * The ISO 4217 code the charges are in: {@code chargeback.currency}, or {@value #DEFAULT_CURRENCY}.
     *
     * @throws IllegalArgumentException when the code is not an ISO 4217 currency
     */
    public String currency() {
        String code = chargeback == null || chargeback.currency() == null ? DEFAULT_CURRENCY : chargeback.currency();
        String problem = currencyProblem(code);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        return java.util.Currency.getInstance(code).getCurrencyCode();
    }

    /** What is wrong with {@code code} as {@code chargeback.currency}, or null when it is an ISO 4217 code. */
    static String currencyProblem(String code) {
        if (!code.matches("[A-Z]{3}")) {
            return "chargeback.currency must be an ISO 4217 code of three capital letters such as EUR, got '" + code
                    + "'";
        }
        try {
            java.util.Currency.getInstance(code);
            return null;
        } catch (IllegalArgumentException e) {
            return "chargeback.currency '" + code + "' is not an ISO 4217 currency code";
        }
    }

    /** Prices per unit-hour. */
    public record Plan(String name, BigDecimal perVcoreHour, BigDecimal perGbHour, BigDecimal perGpuHour) {
    }

    /**
     * A tenant's weight, optional discount-rate override and price plan. {@code discountRateOverride} is named as in the
     * tenant API; {@code discountOverride}, its earlier name, is still read (deprecated, docs/ingestion.md).
     */
    public record Tenant(String path, double weight,
            @JsonAlias("discountOverride") Double discountRateOverride, String pricePlan) {
        TenantConfig toConfig() {
            return new TenantConfig(TenantPath.parse(path), weight,
                    discountRateOverride == null ? OptionalDouble.empty() : OptionalDouble.of(discountRateOverride),
                    pricePlan);
        }
    }

    /** Settings that never changed: no {@code earlier}. */
    public LedgerSettings(Instant registeredAt, Capacity capacity, Double discountRate, Memory memory, ParPolicy par,
            Duration rootQuantum, PeriodSettings period, Duration allowedLateness, Chargeback chargeback,
            List<Tenant> tenants) {
        this(registeredAt, capacity, discountRate, memory, par, rootQuantum, period, allowedLateness, chargeback,
                tenants, null);
    }

    /** The same settings with another tenant list. */
    public LedgerSettings withTenants(List<Tenant> replacement) {
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, period,
                allowedLateness, chargeback, replacement, earlier);
    }

    /** The same settings with other {@code earlier} entries (null: none). */
    public LedgerSettings withEarlier(List<SettingsSegment> entries) {
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, period,
                allowedLateness, chargeback, tenants, entries);
    }

    /** The same settings with another cluster-wide discount rate. */
    public LedgerSettings withDiscountRate(double rate) {
        return new LedgerSettings(registeredAt, capacity, rate, memory, par, rootQuantum, period, allowedLateness,
                chargeback, tenants, earlier);
    }

    /**
     * These settings as stored when they replace {@code before} (null: none yet) from {@code effective} (null: from the
     * registration) for {@code clusterId}: their {@code period} keeps the schedules in force before
     * ({@link PeriodSettings#after}) and their {@code earlier} the tenants, discount rates and prices in force before
     * {@code effective}, unless the registration moved (then everything is replayed from the new one). When they change
     * more than those and the periods ({@link #prospectiveAfter}), the whole history is replayed under them: no
     * {@code earlier}. The {@code earlier} these name themselves is not read: the server keeps its own.
     */
    public LedgerSettings replacing(String clusterId, LedgerSettings before, Instant effective) {
        boolean sameStart = before != null && before.registeredAt() != null
                && before.registeredAt().equals(registeredAt);
        PeriodSettings kept = PeriodSettings.after(sameStart ? before.period() : null, period,
                sameStart ? effective : null, registeredAt);
        List<SettingsSegment> segments = sameStart && effective != null && effective.isAfter(registeredAt)
                && prospectiveAfter(clusterId, before) ? segmentsAfter(before, effective) : List.of();
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, kept,
                allowedLateness, chargeback, tenants, segments.isEmpty() ? null : segments);
    }

    /**
     * Whether these settings may replace {@code before} from an instant on, keeping what the ledger holds: they differ
     * in tenants, discount rate, prices, periods or lateness only ({@link ClusterLedger#reconfigurable}). Any other
     * change (registration, capacity, memory, PAR, quantum) is replayed over the whole history.
     */
    public boolean prospectiveAfter(String clusterId, LedgerSettings before) {
        // the tenants and the discount rates are what may change: left out, the two configurations cost nothing
        return before != null && Objects.equals(before.registeredAt(), registeredAt) && ClusterLedger.reconfigurable(
                before.withSegment(NO_TENANTS, List.of()).toReplayConfig(clusterId, registeredAt).cluster(),
                withSegment(NO_TENANTS, List.of()).toReplayConfig(clusterId, registeredAt).cluster());
    }

    /** A segment of no tenants, no discount rate and no prices, for {@link #prospectiveAfter}. */
    private static final SettingsSegment NO_TENANTS = new SettingsSegment(null, null, List.of(), null, null, null);

    /**
     * {@code before}'s {@code earlier} up to {@code effective}, then {@code before}'s own segment until it; each entry's
     * tenants as the differences from what follows it, now these settings ({@link SettingsSegment}). Only the last entry
     * is written again: what follows it changed.
     */
    private List<SettingsSegment> segmentsAfter(LedgerSettings before, Instant effective) {
        List<SettingsSegment> all = before.earlier() == null ? List.of() : before.earlier();
        int kept = 0;
        while (kept < all.size() && !all.get(kept).until().isAfter(effective)) {
            kept++;
        }
        List<SettingsSegment> out = new ArrayList<>(all.subList(0, kept));
        // the tenants of out's last entry in full, folded back from before's own
        List<Tenant> last = before.tenantList();
        for (int i = all.size() - 1; i >= kept - 1 && i >= 0; i--) {
            last = all.get(i).tenantsBefore(last);
        }
        Instant lastUntil = out.isEmpty() ? registeredAt : out.get(out.size() - 1).until();
        if (lastUntil.isBefore(effective) && !before.segment(effective).sameAs(before.tenantList(), this)) {
            if (!out.isEmpty()) {
                // what followed the last entry may have been dropped: now before's own segment follows it
                out.set(out.size() - 1, out.get(out.size() - 1).followedBy(last, before.tenantList()));
            }
            out.add(before.segment(effective));
            last = before.tenantList();
        }
        // a segment that ended at effective and says what these say goes on: no boundary there
        while (!out.isEmpty() && out.get(out.size() - 1).until().equals(effective)
                && out.get(out.size() - 1).sameAs(last, this)) {
            out.remove(out.size() - 1);
            last = out.isEmpty() ? null : out.get(out.size() - 1).tenantsBefore(last);
        }
        if (!out.isEmpty()) {
            out.set(out.size() - 1, out.get(out.size() - 1).followedBy(last, tenantList()));
        }
        return out;
    }

    /** The part of these settings a change keeps in {@code earlier}, ending at {@code end}, its tenants unwritten. */
    private SettingsSegment segment(Instant end) {
        return new SettingsSegment(discountRate, chargeback, null, null, null, end);
    }

    /**
     * These settings as the audit entry of a change between them and {@code other} (null: none) shows them: without the
     * server's record of {@code earlier}, and of the tenants those {@code other} has not or has with other values. A
     * change of two weights among 10,000 tenants is recorded as those two weights, not as every tenant twice.
     */
    LedgerSettings asChangedFrom(LedgerSettings other) {
        Set<Tenant> unchanged = other == null ? Set.of() : new HashSet<>(other.tenantList());
        List<Tenant> changed = new ArrayList<>();
        for (Tenant t : tenantList()) {
            if (!unchanged.contains(t)) {
                changed.add(t);
            }
        }
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, period,
                allowedLateness, chargeback, changed, null);
    }

    /** {@code tenants}, or none. */
    List<Tenant> tenantList() {
        return tenants == null ? List.of() : tenants;
    }

    /** These settings with the tenants, discount rate and prices of {@code segment}, and no {@code earlier}. */
    LedgerSettings withSegment(SettingsSegment segment, List<Tenant> segmentTenants) {
        return new LedgerSettings(registeredAt, capacity, segment.discountRate(), memory, par, rootQuantum, period,
                allowedLateness, segment.chargeback(), segmentTenants, null);
    }

    /** A typical period's length (a calendar month's: a twelfth of a Gregorian year), for estimates. */
    public Duration nominalPeriod() {
        return Duration.ofMillis(PeriodSettings.schedule(period, registeredAt).nominalMs());
    }

    /** {@code allowedLateness}, or its default. */
    public Duration lateness() {
        return allowedLateness == null ? DEFAULT_ALLOWED_LATENESS : allowedLateness;
    }

    /**
     * Checks that every member is in its range ({@link SettingsLimits}) and that these settings make a replay
     * configuration for {@code clusterId}, as a change of them must.
     *
     * @throws Invalid naming each member that is wrong
     */
    public void validate(String clusterId) {
        SettingsLimits.check(this, "");
        try {
            toReplayConfig(clusterId, registeredAt);
        } catch (IllegalArgumentException e) {
            // a rule of the core's configuration that the ranges do not state: still named as a field error
            throw SettingsLimits.invalid("invalid ledger settings",
                    List.of(new Invalid.Field("settings", e.getMessage())));
        }
    }

    /**
     * The core's replay configuration for {@code clusterId}, replaying up to {@code until}.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public ReplayConfig toReplayConfig(String clusterId, Instant until) {
        return toReplayConfig(clusterId, until, new IdentityHashMap<>(tenantList().size()), null, null);
    }

    /**
     * {@link #toReplayConfig(String, Instant)} with the tenants' configurations {@code configs} holds already (by
     * identity: a change's settings share every tenant it did not change with the settings before, and a live ledger
     * keeps the map from one change to the next; those it makes are added to it), taking from {@code beforeConfig},
     * the configuration of {@code before} (the settings a live ledger went on under last; both null: none), the
     * segments of the {@code earlier} entries the two hold alike ({@link SegmentedConfig}): the same configuration, at
     * the cost of what changed.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public ReplayConfig toReplayConfig(String clusterId, Instant until, Map<Tenant, TenantConfig> configs,
            LedgerSettings before, ReplayConfig beforeConfig) {
        if (registeredAt == null) {
            throw new IllegalArgumentException("registeredAt is required (an ISO-8601 instant)");
        }
        if (capacity == null) {
            throw new IllegalArgumentException("capacity is required ({\"vcores\":..,\"memoryMb\":..,\"gpus\":..})");
        }
        currency();
        // a tenant the entries share (the same instance: tenantsBefore reuses those of the entry after) is configured
        // once: the configurations of its entries share it too
        if (earlier == null || earlier.isEmpty()) {
            return new ReplayConfig(clusterConfig(clusterId, configs), schedule(), chargebackConfig(),
                    until.toEpochMilli());
        }
        return SegmentedConfig.of(this, clusterId, schedule(), until.toEpochMilli(), configs, before, beforeConfig);
    }

    ClusterConfig clusterConfig(String clusterId, Map<Tenant, TenantConfig> configs) {
        List<Tenant> tenants = tenantList();
        List<TenantConfig> tenantConfigs = new ArrayList<>(tenants.size());
        for (Tenant t : tenants) {
            tenantConfigs.add(configs.computeIfAbsent(t, Tenant::toConfig));
        }
        ClusterConfig cluster = new ClusterConfig(clusterId, registeredAt.toEpochMilli(), capacity.toVector(),
                tenantConfigs, discountRate == null ? 1.0 : discountRate,
                memory == null ? MemoryMode.defaultRounds() : memory.toMode(), par == null ? ParPolicy.MAX : par,
                new UsageMeasure.Dominant(), rootQuantum == null ? 0 : rootQuantum.toMillis(), 1000);
        return cluster;
    }

    /**
     * Whether {@link #clusterConfig} and {@link #chargebackConfig} of these settings and {@code other} (null: false)
     * are equal because every member they read is: the registration, capacity, discount rate, memory, PAR, root
     * quantum, prices and tenants. Costs a comparison of the tenant lists, not a configuration of each.
     */
    boolean configuresAs(LedgerSettings other) {
        return other != null && Objects.equals(registeredAt, other.registeredAt)
                && Objects.equals(capacity, other.capacity) && Objects.equals(discountRate, other.discountRate)
                && Objects.equals(memory, other.memory) && Objects.equals(par, other.par)
                && Objects.equals(rootQuantum, other.rootQuantum) && Objects.equals(chargeback, other.chargeback)
                && tenantList().equals(other.tenantList());
    }

    ChargebackConfig chargebackConfig() {
        if (chargeback == null) {
            return ChargebackConfig.usage(new PricePlan("free", BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO));
        }
        Map<String, PricePlan> plans = new LinkedHashMap<>();
        for (Plan p : chargeback.plans() == null ? List.<Plan>of() : chargeback.plans()) {
            plans.put(p.name(), new PricePlan(p.name(), p.perVcoreHour(), p.perGbHour(), p.perGpuHour()));
        }
        ChargeModel model = chargeback.model() == null ? ChargeModel.USAGE : chargeback.model();
        String defaultPlan = chargeback.defaultPlan() != null
                ? chargeback.defaultPlan()
                : plans.isEmpty() ? "" : plans.keySet().iterator().next();
        return new ChargebackConfig(model, plans, defaultPlan, chargeback.costPerPeriod(),
                chargeback.currencyScale() == null ? 2 : chargeback.currencyScale());
    }
}
