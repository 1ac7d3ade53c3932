package io.fairledger.ingest.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.fairledger.tenancy.SettingsLimits;

/**
 * A tenant path an event names (a YARN queue, a Mesos role) is held to the limits of a tenant in the ledger settings
 * ({@link SettingsLimits#pathProblem}), as the ledger creates the tenant: at most 16 levels below the root and 1,024
 * characters.
 */
class TenantPathLimitsTest {

    private final EventDecoder decoder = TestEvents.decoder();

    @Test
    void aQueueAtTheLimitsIsAcceptedOneBeyondIsRefusedNamingTheLimit() {
        assertThat(decoder.decodeJson(container("root" + ".q".repeat(SettingsLimits.MAX_DEPTH))))
                .isInstanceOf(Decoded.Ok.class);
        assertThat(refusal(container("root" + ".q".repeat(SettingsLimits.MAX_DEPTH + 1))))
                .isEqualTo("invalid-field: queue: must be at most 16 levels below the root, got 17");
        String longest = "root." + "q".repeat(SettingsLimits.MAX_PATH_LENGTH - 5);
        assertThat(decoder.decodeJson(container(longest))).isInstanceOf(Decoded.Ok.class);
        assertThat(refusal(container(longest + "q")))
                .isEqualTo("invalid-field: queue: must be at most 1024 characters, got 1025");
        assertThat(refusal(container("root" + ".q".repeat(1_900))))
                .isEqualTo("invalid-field: queue: must be at most 1024 characters, got 3804");
        assertThat(refusal(container("root..q"))).startsWith("invalid-field: queue: tenant path segment");
    }

    @Test
    void aMesosRoleIsHeldToTheSameLimits() {
        assertThat(decoder.decodeJson(task("a" + "/r".repeat(SettingsLimits.MAX_DEPTH - 1))))
                .isInstanceOf(Decoded.Ok.class);
        assertThat(refusal(task("a" + "/r".repeat(SettingsLimits.MAX_DEPTH))))
                .isEqualTo("invalid-field: role: must be at most 16 levels below the root, got 17");
        assertThat(refusal(task("r".repeat(SettingsLimits.MAX_PATH_LENGTH + 1))))
                .isEqualTo("invalid-field: role: must be at most 1024 characters, got 1025");
    }

    private String refusal(byte[] event) {
        return ((Decoded.Rejected) decoder.decodeJson(event)).rejection().describe();
    }

    private static byte[] container(String queue) {
        return TestEvents.utf8("{\"type\":\"YarnContainerEvent\",\"eventId\":\"e1\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T00:00:00Z\",\"applicationId\":\"application_1_0001\",\"attemptId\":"
                + "\"appattempt_1_0001_01\",\"containerId\":\"c1\",\"queue\":\"" + queue + "\",\"user\":\"u\","
                + "\"allocatedMemoryMb\":0,\"allocatedVcores\":1,\"node\":\"n1\",\"state\":\"ALLOCATED\"}");
    }

    private static byte[] task(String role) {
        return TestEvents.utf8("{\"type\":\"MesosTaskStatus\",\"eventId\":\"e1\",\"cluster\":\"c\",\"eventTime\":"
                + "\"2026-11-20T00:00:00Z\",\"frameworkId\":\"f1\",\"role\":\"" + role + "\",\"taskId\":\"t1\","
                + "\"state\":\"TASK_RUNNING\",\"cpus\":1,\"memMb\":64}");
    }
}
