package io.fairledger.perf.history;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.function.Consumer;

/**
 * The history of {@link HistoryScale}, generated from a seed and streamed: YARN containers in the JSON encoding of
 * kafka-schemas/ (a RUNNING and a COMPLETE event each, so two facts), spread evenly over {@code days} days from
 * {@code start}, each in one of {@code queues} queues {@code root.q<i>}, holding 1-4 vcores and 1-8 GB for 1 minute to
 * 2 hours (every container finishes before the last day ends). A fraction {@code late} of the events is delivered late:
 * after the events of up to a day later, drawn uniformly. Events are handed over in delivery order; only the
 * containers still running and the events still held back are in memory (about a day's late events).
 */
final class HistoryWorkload {

    static final Duration MAX_DELAY = Duration.ofDays(1);
    private static final long MIN_RUN_MS = 60_000;
    private static final long MAX_RUN_MS = 7_200_000;

    /** One event: its event time and its JSON line. */
    record Event(long eventTimeMs, String json) {
    }

    /** An event waiting for its delivery time; {@code seq} keeps equal times in generation order. */
    private record Pending(long deliverAt, long seq, Event event) {
    }

    private final String cluster;
    private final Instant start;
    private final long containers;
    private final int days;
    private final int queues;
    private final double late;
    private final long seed;

    HistoryWorkload(String cluster, Instant start, long facts, int days, int queues, double late, long seed) {
        this.cluster = cluster;
        this.start = start;
        this.containers = facts / 2;
        this.days = days;
        this.queues = queues;
        this.late = late;
        this.seed = seed;
    }

    /** The instant of the first day's start. */
    Instant start() {
        return start;
    }

    /** How many days the history spans. */
    int days() {
        return days;
    }

    /** The instant after the last event: the end of the last day. */
    Instant end() {
        return start.plus(Duration.ofDays(days));
    }

    /** Containers running at once on average (arrival rate times mean run time), for sizing the cluster. */
    double meanRunning() {
        return containers / (days * 86_400_000.0) * (MIN_RUN_MS + MAX_RUN_MS) / 2.0;
    }

    /**
     * The ledger settings for this history: {@code tenants} queues of weights 1-3 ({@code root.q0} weighing
     * {@code q0Weight} when it is not negative; no tenant list when {@code tenants} is 0), capacity for 1.2 times the
     * containers running on average, daily periods, the default lateness (1 hour) and memory (ROUNDS of 24 h), USAGE at
     * {@code perVcoreHour}.
     */
    String settings(int tenants, String perVcoreHour, int q0Weight) {
        StringBuilder list = new StringBuilder();
        for (int q = 0; q < tenants; q++) {
            int weight = q == 0 && q0Weight >= 0 ? q0Weight : 1 + q % 3;
            list.append(q == 0 ? "" : ",").append("{\"path\":\"root.q%d\",\"weight\":%d}".formatted(q, weight));
        }
        double running = Math.max(4, meanRunning() * 1.2);
        String chargeback = ("{\"model\":\"USAGE\",\"plans\":[{\"name\":\"std\",\"perVcoreHour\":\"%s\","
                + "\"perGbHour\":\"0.005\",\"perGpuHour\":\"1\"}]}").formatted(perVcoreHour);
        return """
                {"registeredAt":"%s","capacity":{"vcores":%d,"memoryMb":%d,"gpus":0},"period":{"length":"P1D"},
                 "chargeback":%s%s}""".formatted(start, (long) Math.ceil(running * 2.5),
                (long) Math.ceil(running * 4.5 * 1024), chargeback, tenants == 0 ? "" : ",\"tenants\":[" + list + "]");
    }

    /** What {@link #forEach} delivered: events, how many of them late, the latest event time. */
    record Delivered(long events, long late, long lastEventTimeMs) {
    }

    /** Hands every event to {@code sink} in delivery order. */
    Delivered forEach(Consumer<Event> sink) {
        Random random = new Random(seed);
        PriorityQueue<Pending> waiting = new PriorityQueue<>(
                Comparator.comparingLong(Pending::deliverAt).thenComparingLong(Pending::seq));
        long first = start.toEpochMilli();
        long last = end().toEpochMilli() - 1_000;
        double gap = (last - MAX_RUN_MS - first) / (double) containers;
        long seq = 0;
        long delayed = 0;
        long lastEvent = first;
        for (long i = 0; i < containers; i++) {
            long t = first + (long) (i * gap + random.nextDouble() * gap);
            long finished = t + MIN_RUN_MS + (long) (random.nextDouble() * (MAX_RUN_MS - MIN_RUN_MS));
            lastEvent = Math.max(lastEvent, finished);
            int queue = random.nextInt(queues);
            int vcores = 1 + random.nextInt(4);
            long memoryMb = 1024L * (1 + random.nextInt(8));
            String container = "container_1795251600000_%06d_01_%07d".formatted(i / 1_000, i);
            String common = ("\"cluster\":\"%s\",\"applicationId\":\"application_1795251600000_%06d\","
                    + "\"attemptId\":\"appattempt_1795251600000_%<06d_000001\",\"containerId\":\"%s\","
                    + "\"queue\":\"root.q%d\",\"user\":\"u%d\",\"allocatedMemoryMb\":%d,\"allocatedVcores\":%d,"
                    + "\"node\":\"node-%d:8041\",\"createdTime\":%d,\"startedTime\":%<d").formatted(cluster, i / 1_000,
                            container, queue, i % 7, memoryMb, vcores, i % 2_000, t);
            Event running = new Event(t, line(container + "-r", t, "RUNNING", common, ""));
            Event complete = new Event(finished, line(container + "-c", finished, "COMPLETE", common,
                    ",\"finishedTime\":" + finished + ",\"exitStatus\":0"));
            for (Event e : new Event[]{running, complete}) {
                long deliverAt = e.eventTimeMs();
                if (random.nextDouble() < late) {
                    deliverAt += 1 + (long) (random.nextDouble() * MAX_DELAY.toMillis());
                    delayed++;
                }
                waiting.add(new Pending(deliverAt, seq++, e));
            }
            while (!waiting.isEmpty() && waiting.peek().deliverAt() <= t) {
                sink.accept(waiting.poll().event());
            }
        }
        while (!waiting.isEmpty()) {
            sink.accept(waiting.poll().event());
        }
        return new Delivered(seq, delayed, lastEvent);
    }

    static String line(String eventId, long at, String state, String common, String extra) {
        return "{\"type\":\"YarnContainerEvent\",\"eventId\":\"%s\",\"eventTime\":%d,\"state\":\"%s\",%s%s}"
                .formatted(eventId, at, state, common, extra);
    }
}
