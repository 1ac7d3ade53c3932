package io.fairledger.ingest;

import java.time.Instant;
import java.util.List;

import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.model.MemoryUnits;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;
import io.fairledger.facts.LedgerFact;
import io.fairledger.ingest.schema.CapacityChanged;
import io.fairledger.ingest.schema.DemandReported;
import io.fairledger.ingest.schema.FairledgerEvent;
import io.fairledger.ingest.schema.MesosTaskStatus;
import io.fairledger.ingest.schema.YarnContainerEvent;

/**
 * Maps a decoded resource-manager event to the facts the ledger keeps. The rules (docs/ingestion.md):
 * <ul>
 * <li>A YARN container holds its resources from allocation, as YARN's own {@code memorySeconds} counts: ALLOCATED,
 * ACQUIRED and RUNNING are a start at {@code createdTime} (else the event time); COMPLETE, COMPLETED, EXPIRED, RELEASED
 * and KILLED are a finish at {@code finishedTime} (else the event time). NEW, RESERVED and SCHEDULED hold nothing.</li>
 * <li>A Mesos task holds its resources from TASK_STAGING; STAGING, STARTING and RUNNING are a start, the terminal
 * states a finish; KILLING, UNREACHABLE and UNKNOWN change nothing (the task may still come back). Task ids are
 * qualified by the framework, as Mesos only makes them unique within one. A status update carries no resources (only
 * the task does): a start without them takes the tenant, application and resources of the task's earlier start
 * ({@link KnownStarts}), and waits for them when none is known ({@link Unresourced}, {@link WaitingStarts}). CPUs count in thousandths (Mesos keeps scalars to
 * three decimals), memory in whole MB and GPUs whole; the decoder refuses other amounts, nothing is rounded.</li>
 * <li>A finish before its start: a finish that carries the container's start time ({@code createdTime} or
 * {@code startedTime}) also yields that start, under the same dedupe key as the start itself, so whichever arrives
 * first counts and the other is a duplicate; the replay sorts by event time, so the ledger sees start then finish.</li>
 * <li>Every start and finish is deduplicated by task transition, everything else by event id; of a task's starts the
 * earliest counts ({@link io.fairledger.facts.Dedupe}), so a YARN RUNNING without {@code createdTime} or a Mesos
 * RUNNING after STAGING never moves the start later, in whatever order they arrive.</li>
 * </ul>
 */
public final class Normaliser {

    /** What an event means for the books. */
    public sealed interface Result {
    }

    /** Ledger facts; empty when the event changes no account (a YARN container still NEW, say). */
    public record Facts(List<LedgerFact> facts) implements Result {
    }

    /** A job or workflow event: not a ledger fact, kept for the admission service. */
    public record Admission() implements Result {
    }

    /** The event decodes but cannot be accounted; the reason says why. */
    public record Invalid(String reason) implements Result {
    }

    /**
     * A Mesos task start without resources whose task has no start known yet: it waits for the task's resources
     * ({@link WaitingStarts}).
     *
     * @param taskId the task id qualified by its framework
     * @param state  the Mesos state it reports
     * @param at     its event time, epoch milliseconds
     */
    public record Unresourced(String clusterId, String taskId, String state, long at) implements Result {
    }

    private Normaliser() {
    }

    /**
     * The facts of {@code event}; {@code known} gives a task's earlier start to a Mesos update without resources, which
     * is {@link Unresourced} when none is known.
     */
    public static Result normalise(FairledgerEvent event, KnownStarts known) {
        try {
            if (event instanceof YarnContainerEvent y) {
                return yarn(y);
            }
            if (event instanceof MesosTaskStatus m) {
                return mesos(m, known);
            }
            if (event instanceof DemandReported d) {
                ResourceVector pending = ResourceVector.ofMillicores(Math.round(d.pendingCpus() * 1000),
                        d.pendingMemoryMb(), Math.round(d.pendingGpus()));
                tenant(d.tenant());
                return facts(new LedgerFact.Demand(d.cluster(), d.tenant(),
                        d.applicationId() == null ? "" : d.applicationId(), pending, millis(d.eventTime()),
                        LedgerFact.eventKey(d.eventId())));
            }
            if (event instanceof CapacityChanged c) {
                return capacity(c);
            }
            return new Admission();
        } catch (IllegalArgumentException | ArithmeticException e) {
            return new Invalid(e.getMessage());
        }
    }

    private static Result yarn(YarnContainerEvent y) {
        ResourceVector size = ResourceVector.of(y.allocatedVcores(), y.allocatedMemoryMb(), y.allocatedGpus());
        TenantPath tenant = tenant(y.queue());
        return switch (y.state()) {
            case ALLOCATED, ACQUIRED, RUNNING -> facts(start(y.cluster(), y.containerId(), tenant, y.applicationId(),
                    size, first(y.createdTime(), y.startedTime(), y.eventTime())));
            case COMPLETE, COMPLETED, EXPIRED, RELEASED, KILLED -> finish(y.cluster(), y.containerId(), tenant,
                    y.applicationId(), size, first(y.createdTime(), y.startedTime(), null),
                    first(y.finishedTime(), y.eventTime(), null));
            case NEW, RESERVED, SCHEDULED -> facts();
            case UNKNOWN -> new Invalid("YARN container state UNKNOWN cannot be accounted");
        };
    }

    private static Result mesos(MesosTaskStatus m, KnownStarts known) {
        String taskId = (m.frameworkId() == null ? "" : m.frameworkId() + "/") + m.taskId();
        return switch (m.state()) {
            case TASK_STAGING, TASK_STARTING, TASK_RUNNING -> {
                if (!carriesResources(m)) {
                    LedgerEvent.TaskStarted earlier = known.find(m.cluster(), taskId);
                    if (earlier == null) {
                        yield new Unresourced(m.cluster(), taskId, m.state().name(), millis(m.eventTime()));
                    }
                    yield facts(start(m.cluster(), taskId, earlier.tenant(), earlier.applicationId(),
                            earlier.resources(), millis(m.eventTime())));
                }
                yield facts(start(m.cluster(), taskId, tenant(m.role()), m.frameworkId(), mesosSize(m),
                        millis(m.eventTime())));
            }
            case TASK_FINISHED, TASK_FAILED, TASK_KILLED, TASK_ERROR, TASK_LOST, TASK_DROPPED, TASK_GONE,
                    TASK_GONE_BY_OPERATOR ->
                facts(new LedgerFact.Event(
                        new LedgerEvent.TaskFinished(m.cluster(), taskId, millis(m.eventTime())),
                        LedgerFact.taskKey(taskId, false)));
            case TASK_KILLING, TASK_UNREACHABLE, TASK_UNKNOWN -> facts();
        };
    }

    /** Whether a Mesos event states its task's resources (a status update does not; the task's TASK_ADDED does). */
    static boolean carriesResources(MesosTaskStatus m) {
        return m.cpus() != null || m.memMb() != null || m.gpus() != null;
    }

    private static Result capacity(CapacityChanged c) {
        ResourceVector size = ResourceVector.ofMillicores(Math.round(c.cpus() * 1000), c.memoryMb(),
                Math.round(c.gpus()));
        long at = millis(c.eventTime());
        String key = LedgerFact.eventKey(c.eventId());
        return switch (c.change()) {
            case TOTALS -> facts(new LedgerFact.Event(new LedgerEvent.CapacityChanged(c.cluster(), size, at), key));
            case NODE_ADDED -> facts(new LedgerFact.NodeCapacity(c.cluster(), node(c), size, at, key));
            case NODE_REMOVED -> facts(new LedgerFact.NodeCapacity(c.cluster(), node(c), ResourceVector.ZERO, at,
                    key));
            case UNKNOWN -> new Invalid("capacity change kind UNKNOWN cannot be accounted");
        };
    }

    private static String node(CapacityChanged c) {
        if (c.node() == null || c.node().isBlank()) {
            throw new IllegalArgumentException("node is required for " + c.change());
        }
        return c.node();
    }

    /**
     * Exact: the decoder accepts only whole thousandths of a CPU and of a MB and whole GPUs, as Mesos keeps them;
     * {@code round} only removes the binary noise of a decimal ({@code 0.1 * 1000}).
     */
    private static ResourceVector mesosSize(MesosTaskStatus m) {
        return new ResourceVector(Math.round(orZero(m.cpus()) * 1000), MemoryUnits.fromDecimalMb(orZero(m.memMb())),
                Math.round(orZero(m.gpus())));
    }

    private static LedgerFact start(String cluster, String taskId, TenantPath tenant, String applicationId,
            ResourceVector size, long at) {
        return new LedgerFact.Event(new LedgerEvent.TaskStarted(cluster, taskId, tenant,
                applicationId, size, at), LedgerFact.taskKey(taskId, true));
    }

    private static Result finish(String cluster, String taskId, TenantPath tenant, String applicationId,
            ResourceVector size, Long startedAt, long finishedAt) {
        LedgerFact finish = new LedgerFact.Event(new LedgerEvent.TaskFinished(cluster, taskId, finishedAt),
                LedgerFact.taskKey(taskId, false));
        if (startedAt == null) {
            return facts(finish);
        }
        return facts(start(cluster, taskId, tenant, applicationId, size, startedAt), finish);
    }

    private static TenantPath tenant(String path) {
        TenantPath parsed = TenantPath.parse(path);
        if (parsed.isRoot()) {
            throw new IllegalArgumentException("tenant '" + path + "' is the root; events belong to a queue or role");
        }
        return parsed;
    }

    private static Long first(Instant a, Instant b, Instant c) {
        Instant chosen = a != null ? a : b != null ? b : c;
        return chosen == null ? null : chosen.toEpochMilli();
    }

    private static long millis(Instant instant) {
        return instant.toEpochMilli();
    }

    private static double orZero(Double value) {
        return value == null ? 0 : value;
    }

    private static Facts facts(LedgerFact... facts) {
        return new Facts(List.of(facts));
    }
}
