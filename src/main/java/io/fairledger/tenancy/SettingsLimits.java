package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.fairledger.core.chargeback.ChargeModel;
import io.fairledger.core.model.PlainText;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.Invalid;

/**
 * The ranges of every member of a ledger settings document and of a tenant, from what the server can do: what the
 * tenant columns store (NUMERIC(12,6) weight, NUMERIC(6,5) rates), what the ledger's arithmetic and memory take (a
 * replay holds one statement per closed period, at most {@code PeriodSchedule.MAX_PERIODS}), and what a person can
 * read back. One table (docs/api.md, "Ranges of the ledger settings"), checked by every way settings and tenants come
 * in: the admin API, the Kafka registrations ({@link ConfigurationChanges}), the what-if's variant and
 * {@code fairledger account --config}. {@link LedgerSettings#toReplayConfig} does not check them, so settings an older
 * version stored out of range still load (they are reported at start, {@link StoredSettingsCheck}).
 */
public final class SettingsLimits {

    /** The earliest instant a setting may name: no resource manager reports usage from before 2000. */
    public static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
    /** The first instant a setting may not name: far enough for any real cluster, far from overflowing epoch millis. */
    public static final Instant LATEST = Instant.parse("2200-01-01T00:00:00Z");
    /** The shortest period, round and half-life: shorter ones cost a statement or a reset per minute for nothing. */
    public static final Duration SHORTEST_CYCLE = Duration.ofMinutes(1);
    /** The longest period, round and half-life and root quantum: a leap year. */
    public static final Duration LONGEST_CYCLE = Duration.ofDays(366);
    /** The longest allowed lateness: a closed period waits at most this long for late events. */
    public static final Duration LONGEST_LATENESS = Duration.ofDays(31);
    /** The most vcores of a cluster (held as millicores). */
    public static final BigDecimal MAX_VCORES = BigDecimal.valueOf(10_000_000);
    /** The fewest vcores of a cluster that has any: one millicore. */
    public static final BigDecimal MIN_VCORES = new BigDecimal("0.001");
    /** The most memory of a cluster, in MB (10 PB). */
    public static final long MAX_MEMORY_MB = 10_000_000_000L;
    /** The most GPUs of a cluster. */
    public static final long MAX_GPUS = 1_000_000;
    /** The largest tenant weight: NUMERIC(12,6) holds less than 10^6. */
    public static final BigDecimal MAX_WEIGHT = new BigDecimal("999999.999999");
    /** The decimal places a weight keeps (NUMERIC(12,6)). */
    public static final int WEIGHT_SCALE = 6;
    /** The decimal places a discount rate keeps (NUMERIC(6,5)). */
    public static final int RATE_SCALE = 5;
    /** The largest price per unit-hour and cost per period. */
    public static final BigDecimal MAX_PRICE = BigDecimal.valueOf(1_000_000_000_000L);
    /** The decimal places a price or cost may have. */
    public static final int PRICE_SCALE = 10;
    /** The largest {@code currencyScale} (the core's limit). */
    public static final int MAX_CURRENCY_SCALE = 8;
    /** The most price plans of a cluster. */
    public static final int MAX_PLANS = 1_000;
    /** The most tenants of a cluster, the root and implicit ancestors included (the benchmarks run 10,000). */
    public static final int MAX_TENANTS = 50_000;
    /** The most levels of a tenant below the root. */
    public static final int MAX_DEPTH = 16;
    /** The longest tenant path, in characters. */
    public static final int MAX_PATH_LENGTH = 1_024;
    /** The longest name (a cluster's, a price plan's), in characters. */
    public static final int MAX_NAME_LENGTH = 200;

    private SettingsLimits() {
    }

    /**
     * Every member of {@code settings} out of its range, named by its place in the document ({@code period.length},
     * {@code tenants[2].weight}) after {@code prefix} ({@code ""}, or {@code "settings."} inside a what-if); empty when
     * all are in range.
     */
    public static List<Invalid.Field> problems(LedgerSettings settings, String prefix) {
        Problems out = new Problems(prefix);
        out.instant("registeredAt", settings.registeredAt(), true);
        capacity(out, settings.capacity());
        out.rate("discountRate", settings.discountRate());
        memory(out, settings.memory());
        out.duration("rootQuantum", settings.rootQuantum(), Duration.ZERO, LONGEST_CYCLE);
        PeriodSettings.problems(out, settings.period(), settings.registeredAt());
        out.duration("allowedLateness", settings.allowedLateness(), Duration.ZERO, LONGEST_LATENESS);
        chargeback(out, settings.chargeback());
        tenants(out, "tenants", settings.tenants());
        SettingsSegment.problems(out, settings.earlier());
        return out.fields;
    }

    /**
     * Checks {@code settings} ({@link #problems}).
     *
     * @throws Invalid
     *             naming every member out of range
     */
    public static void check(LedgerSettings settings, String prefix) {
        List<Invalid.Field> problems = problems(settings, prefix);
        if (!problems.isEmpty()) {
            throw invalid("invalid ledger settings", problems);
        }
    }

    /** An {@link Invalid} naming each of {@code problems} in its detail too. */
    public static Invalid invalid(String what, List<Invalid.Field> problems) {
        StringBuilder detail = new StringBuilder(what).append(": ");
        for (int i = 0; i < problems.size(); i++) {
            detail.append(i == 0 ? "" : "; ").append(problems.get(i).field()).append(": ")
                    .append(problems.get(i).message());
        }
        return new Invalid(detail.toString(), problems);
    }

    /**
     * What is wrong with a tenant's weight and discount-rate override (either may be null: not given), as problems
     * named {@code weight} and {@code discountRateOverride} after {@code prefix}.
     */
    public static List<Invalid.Field> tenantProblems(String prefix, BigDecimal weight,
            BigDecimal discountRateOverride) {
        Problems out = new Problems(prefix);
        out.weight("weight", weight);
        out.rate("discountRateOverride", discountRateOverride);
        return out.fields;
    }

    /** What is wrong with {@code path} as a tenant path, whatever the resource manager; null when nothing is. */
    public static String pathProblem(String path) {
        if (path == null || path.isBlank()) {
            return "is required";
        }
        if (path.length() > MAX_PATH_LENGTH) {
            return "must be at most " + MAX_PATH_LENGTH + " characters, got " + path.length();
        }
        String text = PlainText.problem(path);
        if (text != null) {
            return "contains " + text;
        }
        TenantPath parsed;
        try {
            parsed = TenantPath.parse(path);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        if (parsed.segments().size() > MAX_DEPTH) {
            return "must be at most " + MAX_DEPTH + " levels below the root, got " + parsed.segments().size();
        }
        return null;
    }

    /** What is wrong with {@code name} (a cluster's, a price plan's); null when nothing is. */
    public static String nameProblem(String name) {
        if (name == null) {
            return null;
        }
        if (name.length() > MAX_NAME_LENGTH) {
            return "must be at most " + MAX_NAME_LENGTH + " characters, got " + name.length();
        }
        String text = PlainText.problem(name);
        return text == null ? null : "contains " + text;
    }

    private static void capacity(Problems out, LedgerSettings.Capacity capacity) {
        if (capacity == null) {
            out.add("capacity", "is required ({\"vcores\":..,\"memoryMb\":..,\"gpus\":..})");
            return;
        }
        // zero is a cluster registered empty: its capacity events (docs/ingestion.md) bring the nodes
        double vcores = capacity.vcores();
        if (!Double.isFinite(vcores) || vcores != 0 && (BigDecimal.valueOf(vcores).compareTo(MIN_VCORES) < 0
                || BigDecimal.valueOf(vcores).compareTo(MAX_VCORES) > 0)) {
            out.add("capacity.vcores", "must be 0 or from " + MIN_VCORES.toPlainString() + " to "
                    + MAX_VCORES.toPlainString() + ", got " + vcores);
        }
        out.whole("capacity.memoryMb", capacity.memoryMb(), 0, MAX_MEMORY_MB);
        out.whole("capacity.gpus", capacity.gpus(), 0, MAX_GPUS);
    }

    private static void memory(Problems out, LedgerSettings.Memory memory) {
        if (memory == null) {
            return;
        }
        String mode = memory.mode() == null ? "ROUNDS" : memory.mode();
        if (!List.of("FULL", "ROUNDS", "DECAY").contains(mode)) {
            out.add("memory.mode", "must be FULL, ROUNDS or DECAY, got '" + shown(mode) + "'");
        }
        out.duration("memory.roundLength", memory.roundLength(), SHORTEST_CYCLE, LONGEST_CYCLE);
        out.instant("memory.roundOrigin", memory.roundOrigin(), false);
        if (mode.equals("DECAY") && memory.halfLife() == null) {
            out.add("memory.halfLife", "is required under DECAY (e.g. \"P7D\")");
        }
        out.duration("memory.halfLife", memory.halfLife(), SHORTEST_CYCLE, LONGEST_CYCLE);
    }

    static void chargeback(Problems out, LedgerSettings.Chargeback chargeback) {
        if (chargeback == null) {
            return;
        }
        Set<String> names = new HashSet<>();
        List<LedgerSettings.Plan> plans = chargeback.plans() == null ? List.of() : chargeback.plans();
        if (plans.size() > MAX_PLANS) {
            out.add("chargeback.plans", "must list at most " + MAX_PLANS + " plans, got " + plans.size());
            return;
        }
        for (int i = 0; i < plans.size(); i++) {
            String at = "chargeback.plans[" + i + "]";
            LedgerSettings.Plan plan = plans.get(i);
            if (plan == null) {
                out.add(at, "is required");
                continue;
            }
            if (plan.name() == null || plan.name().isEmpty()) {
                out.add(at + ".name", "is required");
            } else if (!names.add(plan.name())) {
                out.add(at + ".name", "names another plan already: each name once");
            }
            out.name(at + ".name", plan.name());
            out.price(at + ".perVcoreHour", plan.perVcoreHour(), true);
            out.price(at + ".perGbHour", plan.perGbHour(), true);
            out.price(at + ".perGpuHour", plan.perGpuHour(), true);
        }
        out.name("chargeback.defaultPlan", chargeback.defaultPlan());
        ChargeModel model = chargeback.model() == null ? ChargeModel.USAGE : chargeback.model();
        if (model == ChargeModel.USAGE && plans.isEmpty()) {
            out.add("chargeback.plans", "must list a plan under USAGE");
        } else if (model == ChargeModel.USAGE && chargeback.defaultPlan() != null
                && !names.contains(chargeback.defaultPlan())) {
            out.add("chargeback.defaultPlan", "must name one of the plans");
        }
        out.price("chargeback.costPerPeriod", chargeback.costPerPeriod(), model == ChargeModel.GROUP_BUY);
        Integer scale = chargeback.currencyScale();
        if (scale != null && (scale < 0 || scale > MAX_CURRENCY_SCALE)) {
            out.add("chargeback.currencyScale", "must be from 0 to " + MAX_CURRENCY_SCALE + ", got " + scale);
        }
        if (chargeback.currency() != null && LedgerSettings.currencyProblem(chargeback.currency()) != null) {
            out.add("chargeback.currency", "must be an ISO 4217 code such as EUR, got '" + shown(chargeback.currency())
                    + "'");
        }
    }

    static void tenants(Problems out, String member, List<LedgerSettings.Tenant> tenants) {
        if (tenants == null) {
            return;
        }
        if (tenants.size() > MAX_TENANTS) {
            out.add(member, "must list at most " + MAX_TENANTS + " tenants, got " + tenants.size());
            return;
        }
        for (int i = 0; i < tenants.size(); i++) {
            String at = member + "[" + i + "]";
            LedgerSettings.Tenant tenant = tenants.get(i);
            if (tenant == null) {
                out.add(at, "is required");
                continue;
            }
            String path = pathProblem(tenant.path());
            if (path != null) {
                out.add(at + ".path", path);
            }
            if (!Double.isFinite(tenant.weight())) {
                out.add(at + ".weight", "must be from 0 to " + MAX_WEIGHT.toPlainString());
            } else {
                out.weight(at + ".weight", BigDecimal.valueOf(tenant.weight()));
            }
            if (tenant.discountRateOverride() != null && !Double.isFinite(tenant.discountRateOverride())) {
                out.add(at + ".discountRateOverride", "must be from 0 to 1");
            } else {
                out.rate(at + ".discountRateOverride", tenant.discountRateOverride() == null
                        ? null
                        : BigDecimal.valueOf(tenant.discountRateOverride()));
            }
            out.name(at + ".pricePlan", tenant.pricePlan());
        }
    }

    /** Problems found so far, their names after a prefix. */
    static final class Problems {
        final String prefix;
        final List<Invalid.Field> fields = new ArrayList<>();

        Problems(String prefix) {
            this.prefix = prefix;
        }

        void add(String member, String message) {
            fields.add(new Invalid.Field(prefix + member, message));
        }

        void instant(String member, Instant value, boolean required) {
            if (value == null) {
                if (required) {
                    add(member, "is required (an ISO-8601 instant from " + EARLIEST + ", before " + LATEST + ")");
                }
                return;
            }
            if (value.isBefore(EARLIEST) || !value.isBefore(LATEST)) {
                add(member, "must be from " + EARLIEST + " and before " + LATEST + ", got " + value);
            }
        }

        void duration(String member, Duration value, Duration min, Duration max) {
            if (value != null && (value.compareTo(min) < 0 || value.compareTo(max) > 0)) {
                add(member, "must be from " + min + " to " + max + " (" + max.toDays() + " days), got " + value);
            }
        }

        void whole(String member, long value, long min, long max) {
            if (value < min || value > max) {
                add(member, "must be from " + min + " to " + max + ", got " + value);
            }
        }

        void rate(String member, Double value) {
            if (value != null && !Double.isFinite(value)) {
                add(member, "must be from 0 to 1");
            } else {
                rate(member, value == null ? null : BigDecimal.valueOf(value));
            }
        }

        void rate(String member, BigDecimal value) {
            if (value != null && (value.signum() < 0 || value.compareTo(BigDecimal.ONE) > 0
                    || value.stripTrailingZeros().scale() > RATE_SCALE)) {
                add(member, "must be from 0 to 1 with at most " + RATE_SCALE + " decimal places, got "
                        + value.toPlainString());
            }
        }

        void weight(String member, BigDecimal value) {
            if (value != null && (value.signum() < 0 || value.compareTo(MAX_WEIGHT) > 0
                    || value.stripTrailingZeros().scale() > WEIGHT_SCALE)) {
                add(member, "must be from 0 to " + MAX_WEIGHT.toPlainString() + " with at most " + WEIGHT_SCALE
                        + " decimal places, got " + shown(value));
            }
        }

        void price(String member, BigDecimal value, boolean required) {
            if (value == null) {
                if (required) {
                    add(member, "is required (from 0 to " + MAX_PRICE.toPlainString() + ")");
                }
                return;
            }
            if (value.signum() < 0 || value.compareTo(MAX_PRICE) > 0
                    || value.stripTrailingZeros().scale() > PRICE_SCALE) {
                add(member, "must be from 0 to " + MAX_PRICE.toPlainString() + " with at most " + PRICE_SCALE
                        + " decimal places, got " + shown(value));
            }
        }

        void name(String member, String value) {
            String problem = nameProblem(value);
            if (problem != null) {
                add(member, problem);
            }
        }

        /** {@code value} as a short text: a number of 300 digits is named by its magnitude. */
        private static String shown(BigDecimal value) {
            String plain = value.toPlainString();
            return plain.length() <= 40 ? plain : value.round(new MathContext(6)).toString();
        }
    }

    /** A text from a request shown in a message: at most 64 characters, what is not printable ASCII escaped. */
    static String shown(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length() && i < 64; i++) {
            char c = text.charAt(i);
            out.append(c >= ' ' && c < '\u007F' ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return text.length() > 64 ? out + "..." : out.toString();
    }
}
