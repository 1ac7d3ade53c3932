package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.chargeback.ChargebackConfig;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ParPolicy;
import io.fairledger.core.model.PricePlan;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;
import io.fairledger.core.model.UsageMeasure;
import io.fairledger.core.replay.ReplayConfig;
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
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LedgerSettings(Instant registeredAt, Capacity capacity, Double discountRate, Memory memory,
        ParPolicy par, Duration rootQuantum, PeriodSettings period, Duration allowedLateness, Chargeback chargeback,
        List<Tenant> tenants) {

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

    /** The same settings with another tenant list. */
    public LedgerSettings withTenants(List<Tenant> replacement) {
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, period,
                allowedLateness, chargeback, replacement);
    }

    /** The same settings with another cluster-wide discount rate. */
    public LedgerSettings withDiscountRate(double rate) {
        return new LedgerSettings(registeredAt, capacity, rate, memory, par, rootQuantum, period, allowedLateness,
                chargeback, tenants);
    }

    /**
     * These settings as stored when they replace {@code before} (null: none yet) from {@code effective} (null: from the
     * registration): their {@code period} keeps the schedules in force before ({@link PeriodSettings#after}), unless
     * the registration moved (then everything is replayed from the new one).
     */
    public LedgerSettings replacing(LedgerSettings before, Instant effective) {
        boolean sameStart = before != null && before.registeredAt() != null
                && before.registeredAt().equals(registeredAt);
        PeriodSettings kept = PeriodSettings.after(sameStart ? before.period() : null, period,
                sameStart ? effective : null, registeredAt);
        return new LedgerSettings(registeredAt, capacity, discountRate, memory, par, rootQuantum, kept,
                allowedLateness, chargeback, tenants);
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
        if (registeredAt == null) {
            throw new IllegalArgumentException("registeredAt is required (an ISO-8601 instant)");
        }
        if (capacity == null) {
            throw new IllegalArgumentException("capacity is required ({\"vcores\":..,\"memoryMb\":..,\"gpus\":..})");
        }
        currency();
        List<TenantConfig> tenantConfigs = new ArrayList<>();
        for (Tenant t : tenants == null ? List.<Tenant>of() : tenants) {
            tenantConfigs.add(t.toConfig());
        }
        ClusterConfig cluster = new ClusterConfig(clusterId, registeredAt.toEpochMilli(), capacity.toVector(),
                tenantConfigs, discountRate == null ? 1.0 : discountRate,
                memory == null ? MemoryMode.defaultRounds() : memory.toMode(), par == null ? ParPolicy.MAX : par,
                new UsageMeasure.Dominant(), rootQuantum == null ? 0 : rootQuantum.toMillis(), 1000);
        return new ReplayConfig(cluster, PeriodSettings.schedule(period, registeredAt), chargebackConfig(),
                until.toEpochMilli());
    }

    private ChargebackConfig chargebackConfig() {
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
