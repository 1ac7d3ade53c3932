package io.fairledger.ingest.schema;

/** Topic names and an example event line shared by the registry tests. */
final class TestEventLines {

    static final String YARN = EventTopics.YARN_CONTAINERS;

    /** A finished container: one vcore from 09:00 to 09:30 on 2026-11-21. */
    static final String CONTAINER = "{\"type\":\"YarnContainerEvent\",\"eventId\":\"c1-done\",\"cluster\":\"prod-yarn\","
            + "\"eventTime\":\"2026-11-21T09:30:00Z\",\"applicationId\":\"application_1_0001\","
            + "\"attemptId\":\"appattempt_1_0001_000001\",\"containerId\":\"container_1_0001_01_000001\","
            + "\"queue\":\"root.a\",\"user\":\"alice\",\"allocatedMemoryMb\":1024,\"allocatedVcores\":1,"
            + "\"node\":\"n1:8041\",\"state\":\"COMPLETE\",\"createdTime\":\"2026-11-21T09:00:00Z\","
            + "\"startedTime\":\"2026-11-21T09:00:00Z\",\"finishedTime\":\"2026-11-21T09:30:00Z\"}";

    private TestEventLines() {
    }
}
