package io.fairledger.perf.history;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** {@link HistoryScale}'s options, {@code --name value} pairs; see its class comment for each one's meaning. */
record HistoryOptions(long facts, int tenants, int days, double late, long seed, int requests, int memoryTenants,
        int memoryTasks) {

    static HistoryOptions parse(String[] args) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options are --name value pairs, got: " + String.join(" ", args));
            }
            given.put(args[i].substring(2), args[i + 1]);
        }
        HistoryOptions o = new HistoryOptions(Long.parseLong(given.getOrDefault("facts", "10000000")),
                Integer.parseInt(given.getOrDefault("tenants", "1000")),
                Integer.parseInt(given.getOrDefault("days", "30")),
                Double.parseDouble(given.getOrDefault("late", "0.05")),
                Long.parseLong(given.getOrDefault("seed", "15")),
                Integer.parseInt(given.getOrDefault("requests", "100")),
                Integer.parseInt(given.getOrDefault("memory-tenants", "10000")),
                Integer.parseInt(given.getOrDefault("memory-tasks", "100000")));
        given.keySet().removeAll(List.of("facts", "tenants", "days", "late", "seed", "requests", "memory-tenants",
                "memory-tasks"));
        if (!given.isEmpty()) {
            throw new IllegalArgumentException("unknown options: " + given.keySet());
        }
        if (o.days < 3 || o.facts < 2 || o.tenants < 1 || o.requests < 1) {
            throw new IllegalArgumentException("need --days >= 3, --facts >= 2, --tenants >= 1, --requests >= 1");
        }
        return o;
    }
}
