package io.fairledger.testsupport;

import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;

/**
 * Ledger settings documents for fuzzing: every member present or not, each from a list of values in range, on its
 * bounds and far out of it (the attack run's PT1S and PT2562047788015H periods, 1 ms rounds, a weight of 1e308,
 * instants in year 1 and +99999, zero-width and U+FFFF characters, a tenant 1,900 levels deep). Built from a
 * {@link Random}, so a property and a server-level sample share them. The first value of each list is in range.
 */
public final class SettingsDocuments {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final List<String> INSTANTS = List.of("2026-11-20T00:00:00Z", "2000-01-01T00:00:00Z",
            "1999-12-31T23:59:59Z", "2199-12-31T23:59:59Z", "2200-01-01T00:00:00Z", "1970-01-01T00:00:00Z",
            "0001-01-01T00:00:00Z", "+99999-01-01T00:00:00Z", "-1000000000-01-01T00:00:00Z",
            "+1000000000-12-31T23:59:59Z", "not an instant");
    private static final List<String> DURATIONS = List.of("PT1H", "P1D", "PT1M", "PT59S", "PT1S", "PT0.001S", "PT0S",
            "PT-1H", "P366D", "P367D", "PT2562047788015H", "PT2562047788016H", "PT9999999999999999H", "P1Y", "soon");
    private static final List<Object> NUMBERS = List.of(1, 0, -1, 0.5, 0.123456, 0.0000001, 999999.999999, 1000000,
            1e7, 1e10, 1e11, 1e308, -1e308, Long.MAX_VALUE, "1e400", 0.001, 0.0005);
    private static final List<String> NAMES = List.of("std", "", "a\uFFFF", "a\u200Bb", "a\u0000b", "a\u001b[31m",
            "\uFEFFstd", "x".repeat(300), "caf\u00e9", "\ud800");
    private static final List<String> PATHS = List.of("root.a", "root.a.b", "root..a", "root", "a/b", "root.a\u200B",
            "root.a\uFFFF", "root." + "a.".repeat(1900) + "a", "root." + "x".repeat(65), "", " root.a ");

    private SettingsDocuments() {
    }

    /** A settings document, most members present, many of them out of range. */
    public static String document(Random random) {
        ObjectNode doc = JSON.createObjectNode();
        if (random.nextInt(10) > 0) {
            put(doc, "registeredAt", pick(random, INSTANTS));
        }
        if (random.nextInt(10) > 0) {
            ObjectNode capacity = doc.putObject("capacity");
            put(capacity, "vcores", random.nextInt(3) == 0 ? pick(random, NUMBERS) : 10);
            put(capacity, "memoryMb", random.nextInt(3) == 0 ? pick(random, NUMBERS) : 10240);
            put(capacity, "gpus", random.nextInt(3) == 0 ? pick(random, NUMBERS) : 0);
        }
        if (random.nextBoolean()) {
            put(doc, "discountRate", pick(random, NUMBERS));
        }
        if (random.nextBoolean()) {
            ObjectNode memory = doc.putObject("memory");
            put(memory, "mode", pick(random, List.of("FULL", "ROUNDS", "DECAY", "bogus")));
            maybe(random, memory, "roundLength", DURATIONS);
            maybe(random, memory, "roundOrigin", INSTANTS);
            maybe(random, memory, "halfLife", DURATIONS);
        }
        if (random.nextBoolean()) {
            put(doc, "par", pick(random, List.of("MAX", "MIN", "ZERO", "MOST")));
        }
        maybe(random, doc, "rootQuantum", DURATIONS);
        if (random.nextBoolean()) {
            ObjectNode period = doc.putObject("period");
            maybe(random, period, "origin", INSTANTS);
            put(period, "length", pick(random, DURATIONS));
        }
        maybe(random, doc, "allowedLateness", DURATIONS);
        if (random.nextBoolean()) {
            ObjectNode chargeback = doc.putObject("chargeback");
            put(chargeback, "model", pick(random, List.of("USAGE", "GROUP_BUY", "FREE")));
            ArrayNode plans = chargeback.putArray("plans");
            for (int i = random.nextInt(3); i > 0; i--) {
                ObjectNode plan = plans.addObject();
                put(plan, "name", random.nextBoolean() ? "std" : pick(random, NAMES));
                for (String price : List.of("perVcoreHour", "perGbHour", "perGpuHour")) {
                    if (random.nextInt(8) > 0) {
                        put(plan, price, random.nextBoolean() ? "1" : pick(random, NUMBERS));
                    }
                }
            }
            maybe(random, chargeback, "defaultPlan", NAMES);
            if (random.nextBoolean()) {
                put(chargeback, "costPerPeriod", pick(random, NUMBERS));
            }
            if (random.nextBoolean()) {
                put(chargeback, "currencyScale", pick(random, List.of(2, 0, 8, -1, 9, 1_000_000)));
            }
            maybe(random, chargeback, "currency", List.of("EUR", "XXX", "eur", "ZZZ", "\u20ac", "EURO"));
        }
        if (random.nextBoolean()) {
            ArrayNode tenants = doc.putArray("tenants");
            for (int i = random.nextInt(4); i > 0; i--) {
                ObjectNode tenant = tenants.addObject();
                put(tenant, "path", random.nextBoolean() ? "root.t" + i : pick(random, PATHS));
                put(tenant, "weight", random.nextBoolean() ? 1 : pick(random, NUMBERS));
                if (random.nextBoolean()) {
                    put(tenant, "discountOverride", pick(random, NUMBERS));
                }
            }
        }
        return doc.toString();
    }

    /** A valid document under which the live ledger of a cluster is built at once. */
    public static String valid() {
        return """
                {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
                 "period":{"length":"PT1H"},"tenants":[{"path":"root.a","weight":1}]}""";
    }

    private static void maybe(Random random, ObjectNode node, String member, List<?> values) {
        if (random.nextBoolean()) {
            put(node, member, pick(random, values));
        }
    }

    /** The first of {@code values} (in range) four times in five, else any: most documents have a few bad members. */
    private static Object pick(Random random, List<?> values) {
        return values.get(random.nextInt(5) > 0 ? 0 : random.nextInt(values.size()));
    }

    private static void put(ObjectNode node, String member, Object value) {
        if (value instanceof String text && text.equals("1e400")) {
            node.putRawValue(member, new RawValue("1e400"));
        } else {
            node.set(member, JSON.valueToTree(value));
        }
    }
}
