package io.fairledger.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/**
 * Issue #32 item 1 through {@code fairledger account}: Mesos tasks of 600.5 MB and of 0.001 MB are accounted at the
 * thousandth of a MB, in usage, fairness and the charge per GB-hour (docs/domain.md sections 3 and 8).
 */
class MesosFractionalMemoryTest {

    /** 10 vcores and 10240 MB, hourly periods, USAGE at 1024 per GB-hour (1 per MB-hour), tenants a and b. */
    private static final String SETTINGS = """
            {"registeredAt":"2026-11-20T00:00:00Z","capacity":{"vcores":10,"memoryMb":10240,"gpus":0},
             "memory":{"mode":"FULL"},"period":{"length":"PT1H"},
             "chargeback":{"model":"USAGE","plans":[{"name":"std","perVcoreHour":"0","perGbHour":"1024",
             "perGpuHour":"0"}]},
             "tenants":[{"path":"root.a","weight":1},{"path":"root.b","weight":1}]}""";

    @Test
    void tasksWithAFractionOfAMegabyteAreBilledToTheThousandth() throws IOException {
        List<String> events = List.of(status("a", "ta", "00:00:00", "TASK_STAGING", "600.5"),
                status("a", "ta", "00:30:00", "TASK_FINISHED", null),
                status("b", "tb", "00:00:00", "TASK_RUNNING", "0.001"));

        ArrivalOrderTest.Result result = ArrivalOrderTest.account(events, "2026-11-20T01:00:00Z", SETTINGS, "c");

        assertThat(result.deadLetters()).isEmpty();
        JsonNode a = ArrivalOrderTest.line(result.statements(), 0, "a");
        // 600.5 MB for 1800 s; memory is a's dominant share: 600.5 / 10240 for half an hour, all of it wanted and
        // within a's share of 0.5
        assertThat(a.get("memoryMbSeconds").decimalValue()).isEqualByComparingTo("1080900");
        assertThat(a.get("actual").decimalValue()).isEqualByComparingTo("0.029321");
        assertThat(a.get("entitled").decimalValue()).isEqualByComparingTo("0.029321");
        assertThat(a.get("rho").asDouble()).isEqualTo(1.0);
        // 1080900 MB-seconds at 1 per MB-hour: 300.25
        assertThat(a.get("charge").decimalValue()).isEqualByComparingTo("300.25");
        JsonNode b = ArrivalOrderTest.line(result.statements(), 0, "b");
        // 0.001 MB for 3600 s: 3.6 MB-seconds, 0.001 MB-hours, charged 0.001, which rounds to 0.00
        assertThat(b.get("memoryMbSeconds").decimalValue()).isEqualByComparingTo("3.6");
        assertThat(b.get("actual").decimalValue()).isEqualByComparingTo("0");
        assertThat(b.get("charge").decimalValue()).isEqualByComparingTo("0");
        assertThat(b.get("rho").asDouble()).isEqualTo(1.0);
    }

    private static String status(String role, String task, String time, String state, String memMb) {
        return ("{\"type\":\"MesosTaskStatus\",\"eventId\":\"%s-%s\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T%sZ\",\"frameworkId\":\"f1\",\"role\":\"%s\",\"taskId\":\"%s\",\"state\":\"%s\"%s}")
                .formatted(task, state, time, role, task, state, memMb == null ? "" : ",\"memMb\":" + memMb);
    }
}
