package io.fairledger.testsupport;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded synthetic YARN workload in the JSON encoding of kafka-schemas/: containers of several queues, each an
 * ALLOCATED, a RUNNING and a COMPLETE event, with sizes and durations drawn at random. The same seed gives the same
 * lines, so a test can feed them to the server and to {@code fairledger account} and compare.
 */
public final class YarnWorkload {

    private YarnWorkload() {
    }

    /**
     * @param cluster    the cluster id
     * @param start      the first container's allocation
     * @param containers how many containers (three events each)
     * @param queues     how many queues ({@code root.q0} ...)
     */
    public static List<String> lines(String cluster, Instant start, int containers, int queues, long seed) {
        Random random = new Random(seed);
        List<String> lines = new ArrayList<>(containers * 3);
        long t = start.toEpochMilli();
        for (int i = 0; i < containers; i++) {
            t += random.nextInt(2_000);
            long running = t + 500 + random.nextInt(1_500);
            long finished = running + 1_000 + random.nextInt(600_000);
            String queue = "root.q" + random.nextInt(queues);
            int vcores = 1 + random.nextInt(4);
            long memory = 1024L * (1 + random.nextInt(8));
            String container = "container_1795251600000_%04d_01_%06d".formatted(i / 100, i);
            String common = "\"cluster\":\"%s\",\"applicationId\":\"application_1795251600000_%04d\",\"attemptId\":\"appattempt_1795251600000_%<04d_000001\",\"containerId\":\"%s\",\"queue\":\"%s\",\"user\":\"u%d\",\"allocatedMemoryMb\":%d,\"allocatedVcores\":%d,\"node\":\"node-%d:8041\",\"createdTime\":%d"
                    .formatted(cluster, i / 100, container, queue, i % 7, memory, vcores, i % 50, t);
            lines.add(line(container + "-a", t, "ALLOCATED", common, ""));
            lines.add(line(container + "-r", running, "RUNNING", common, ",\"startedTime\":" + running));
            lines.add(line(container + "-c", finished, "COMPLETE", common,
                    ",\"startedTime\":" + running + ",\"finishedTime\":" + finished + ",\"exitStatus\":0"));
        }
        return lines;
    }

    /**
     * One container of {@code root.q0} holding 1 vcore and 1 GB for one second from {@code at}, one COMPLETE event: a
     * workload's last line, bringing the cluster's latest fact to {@code at} so that the periods before it have ended
     * (the server states the periods its facts have reached, docs/accounting.md).
     */
    public static String last(String cluster, Instant at) {
        long t = at.toEpochMilli();
        String common = ("\"cluster\":\"%s\",\"applicationId\":\"application_1795251600000_9999\",\"attemptId\":"
                + "\"appattempt_1795251600000_9999_000001\",\"containerId\":\"container_1795251600000_9999_01_000001\","
                + "\"queue\":\"root.q0\",\"user\":\"u0\",\"allocatedMemoryMb\":1024,\"allocatedVcores\":1,"
                + "\"node\":\"node-0:8041\",\"createdTime\":%d").formatted(cluster, t);
        return line("last-" + t, t + 1000, "COMPLETE", common,
                ",\"startedTime\":" + t + ",\"finishedTime\":" + (t + 1000) + ",\"exitStatus\":0");
    }

    private static String line(String eventId, long at, String state, String common, String extra) {
        return "{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"eventTime\":%d,\"state\":\"%s\",%s%s}"
                .formatted(eventId, at, state, common, extra);
    }

    /** The settings document for the workload's cluster, accounted with FULL memory in hourly periods. */
    public static String settings(Instant registeredAt, int queues) {
        StringBuilder tenants = new StringBuilder();
        for (int q = 0; q < queues; q++) {
            tenants.append(q == 0 ? "" : ",").append("{\"path\":\"root.q%d\",\"weight\":%d}".formatted(q, 1 + q % 3));
        }
        return """
                {"registeredAt":"%s","capacity":{"vcores":200,"memoryMb":819200,"gpus":0},
                 "memory":{"mode":"FULL"},"period":{"length":"PT1H"},
                 "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"0.04","perGbHour":"0.005",
                 "perGpuHour":"1"}]},
                 "tenants":[%s]}""".formatted(registeredAt, tenants);
    }
}
