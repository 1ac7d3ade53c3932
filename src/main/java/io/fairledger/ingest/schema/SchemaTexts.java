package io.fairledger.ingest.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The schemas of {@code kafka-schemas/}, which the build packages at {@code /kafka-schemas/} on the classpath: the
 * current v1 versions and every released version in {@code compat/}, which the decoder must still read.
 */
final class SchemaTexts {

    static final String CAPACITY_CHANGED = load("CapacityChanged.avsc");
    static final String DEMAND_REPORTED = load("DemandReported.avsc");
    static final String JOB_FINISHED = load("JobFinished.avsc");
    static final String JOB_SUBMITTED = load("JobSubmitted.avsc");
    static final String MESOS_TASK_STATUS = load("MesosTaskStatus.avsc");
    static final String WORKFLOW_SUBMITTED = load("WorkflowSubmitted.avsc");
    static final String YARN_CONTAINER_EVENT = load("YarnContainerEvent.avsc");

    /** The files of {@code kafka-schemas/compat/}, in name order; {@code SchemaFilesTest} checks none is missing. */
    static final List<String> RELEASED_FILES = List.of("CapacityChanged.avsc", "DemandReported.avsc",
            "JobFinished.avsc", "JobSubmitted.avsc", "MesosTaskStatus.avsc", "WorkflowSubmitted.avsc",
            "YarnContainerEvent.avsc");

    /** Released versions, in {@link #RELEASED_FILES} order. */
    static final List<String> RELEASED = RELEASED_FILES.stream().map(name -> load("compat/" + name)).toList();

    private SchemaTexts() {
    }

    private static String load(String path) {
        String resource = "/kafka-schemas/" + path;
        try (InputStream in = SchemaTexts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("schema " + resource + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema " + resource, e);
        }
    }
}
