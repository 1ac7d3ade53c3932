package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;

/**
 * A Mesos stream gives the same statements and the same dead letters in every arrival order in which no event comes
 * more than the allowed lateness (1 h, the default) after the latest event time seen before it (docs/ingestion.md,
 * "Duplicates, order and lateness"), through {@code fairledger account}, the consumer's intake. The streams mix
 * operator TASK_ADDED events (which carry the resources), STAGING and RUNNING updates with and without resources,
 * finishes and redelivered duplicates; some tasks never get their TASK_ADDED, some get it more than the lateness after
 * their first update.
 */
class MesosArrivalOrderProperties {

    private static final Instant ORIGIN = Instant.parse("2026-11-20T00:00:00Z");
    private static final long LATENESS = Duration.ofHours(1).toMillis();
    private static final String UNTIL = "2026-11-20T09:00:00Z";

    private record Event(long at, String line) {
    }

    @Property(tries = 25)
    void everyOrderWithinTheLatenessGivesTheSameStatementsAndDeadLetters(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 5) int tasks) throws IOException {
        Random random = new Random(seed);
        List<Event> stream = stream(random, tasks);
        List<Event> inOrder = new ArrayList<>(stream);
        inOrder.sort(Comparator.comparingLong(Event::at));
        ArrivalOrderTest.Result expected = ArrivalOrderTest.account(lines(inOrder), UNTIL);
        Statistics.label("dead letters").collect(expected.deadLetters().size());

        for (int order = 0; order < 3; order++) {
            ArrivalOrderTest.Result result = ArrivalOrderTest.account(lines(late(stream, random)), UNTIL);
            assertThat(result.statements()).isEqualTo(expected.statements());
            assertThat(letters(result)).isEqualTo(letters(expected));
        }
    }

    /** {@code stream} in an arrival order where each event comes at most the lateness after its own time. */
    private static List<Event> late(List<Event> stream, Random random) {
        record Arrival(long at, Event event) {
        }
        List<Arrival> arrivals = new ArrayList<>();
        for (Event e : stream) {
            arrivals.add(new Arrival(e.at() + (long) (random.nextDouble() * LATENESS), e));
        }
        arrivals.sort(Comparator.comparingLong(Arrival::at));
        return arrivals.stream().map(Arrival::event).toList();
    }

    private static List<Event> stream(Random random, int tasks) {
        List<Event> events = new ArrayList<>();
        for (int k = 0; k < tasks; k++) {
            String task = "t" + k;
            String role = random.nextBoolean() ? "a" : "b";
            long base = minutes(random.nextInt(180));
            boolean addedLate = random.nextInt(10) == 0;
            long running = addedLate ? base : base + minutes(random.nextInt(90));
            // a task has one size: every event of it that states resources states the same
            int cpus = 1 + random.nextInt(3);
            if (random.nextInt(5) > 0) {
                long added = addedLate ? base + minutes(61 + random.nextInt(60)) : base + minutes(random.nextInt(10));
                events.add(new Event(added, added(task, role, added, cpus)));
            }
            if (random.nextBoolean()) {
                events.add(new Event(base, status(task, "staging", role, base, "TASK_STAGING", null)));
            }
            String resources = random.nextInt(10) < 3 ? "\"cpus\":" + cpus + ",\"memMb\":512" : null;
            events.add(new Event(running, status(task, "running", role, running, "TASK_RUNNING", resources)));
            if (random.nextInt(5) > 0) {
                long finished = running + minutes(1 + random.nextInt(120));
                events.add(new Event(finished, status(task, "finished", role, finished, "TASK_FINISHED", null)));
            }
        }
        int duplicates = random.nextInt(3);
        for (int d = 0; d < duplicates; d++) {
            events.add(events.get(random.nextInt(events.size())));
        }
        return events;
    }

    private static String added(String task, String role, long at, int cpus) {
        return ("{\"cluster\":\"c\",\"eventTime\":\"%s\",\"type\":\"TASK_ADDED\",\"task_added\":{\"task\":{"
                + "\"task_id\":{\"value\":\"%s\"},\"framework_id\":{\"value\":\"f1\"},\"state\":\"TASK_STAGING\","
                + "\"resources\":[{\"name\":\"cpus\",\"type\":\"SCALAR\",\"scalar\":{\"value\":%d},\"role\":\"%s\"},"
                + "{\"name\":\"mem\",\"type\":\"SCALAR\",\"scalar\":{\"value\":512},\"role\":\"%s\"}]}}}")
                .formatted(ORIGIN.plusMillis(at), task, cpus, role, role);
    }

    private static String status(String task, String name, String role, long at, String state, String resources) {
        return ("{\"type\":\"MesosTaskStatus\",\"eventId\":\"%s-%s\",\"cluster\":\"c\",\"eventTime\":\"%s\","
                + "\"frameworkId\":\"f1\",%s\"taskId\":\"%s\",\"state\":\"%s\"%s}")
                .formatted(task, name, ORIGIN.plusMillis(at), resources == null ? "" : "\"role\":\"" + role + "\",",
                        task, state, resources == null ? "" : "," + resources);
    }

    private static List<String> lines(List<Event> events) {
        return events.stream().map(Event::line).toList();
    }

    /** The dead letters' reasons and values, sorted: their lines differ with the order. */
    private static List<String> letters(ArrivalOrderTest.Result result) {
        return result.deadLetters().stream().map(l -> l.get("reason").asText() + " <- " + l.get("value").asText())
                .sorted().toList();
    }

    private static long minutes(int minutes) {
        return Duration.ofMinutes(minutes).toMillis();
    }

}
