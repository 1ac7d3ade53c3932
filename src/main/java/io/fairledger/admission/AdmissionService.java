package io.fairledger.admission;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.common.annotation.Identifier;
import org.jboss.logging.Logger;

import io.fairledger.accounting.SettingsInForce;
import io.fairledger.audit.AuditTrail;
import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.admission.Justice;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.DomainException;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.LedgerSettings;

/**
 * Serves admissions: one {@link ClusterAdmission} per cluster, kept up to date with the cluster's {@link AdmissionLog}
 * (docs/admission.md, "Serving admissions"). Every input (HTTP submissions, completions, workflows, policy changes,
 * timer passes, and the job events the Kafka consumer stores) is first a row of the log; the state is the replay of
 * the log, so a restart or another replica derives the same decisions. Calls per cluster are serialised by a lock.
 * The decisions a row produces are published to Kafka by the server that sequenced the row, once.
 */
@ApplicationScoped
public class AdmissionService {

    private static final Logger LOG = Logger.getLogger(AdmissionService.class);
    private static final int CHUNK = 1_000;

    @Inject
    AdmissionLog log;

    @Inject
    SettingsInForce inForce;

    @Inject
    AuditTrail audit;

    @Inject
    MeterRegistry meters;

    @Inject
    @Identifier("default-kafka-broker")
    Map<String, Object> kafkaConfig;

    @Inject
    FairledgerConfig config;

    private final Clock clock = Clock.systemUTC();
    private final Map<String, Holder> clusters = new ConcurrentHashMap<>();
    private DecisionPublisher publisher;
    private ScheduledExecutorService poller;

    /** One cluster's state, its lock, and the positions this server sequenced and has still to publish. */
    private final class Holder {
        final ReentrantLock lock = new ReentrantLock();
        final ClusterAdmission state;
        final Set<Long> mine = ConcurrentHashMap.newKeySet();
        final Map<Long, Applied> results = new ConcurrentHashMap<>();

        Holder(String cluster) {
            state = new ClusterAdmission(cluster);
            Tags tags = Tags.of(MetricNames.CLUSTER, cluster);
            meters.gauge(MetricNames.ADMISSION_QUEUE, tags, this, h -> h.read(ClusterAdmission::queuedJobs));
            fraction(tags, "min", Justice.Fractions::min);
            fraction(tags, "max", Justice.Fractions::max);
            fraction(tags, "last", Justice.Fractions::last);
            fraction(tags, "corrected", Justice.Fractions::corrected);
            meters.gauge(MetricNames.ADMISSION_SDR, tags, this, h -> h.read(s -> s.summary().sdr()));
            meters.gauge(MetricNames.ADMISSION_PTR, tags, this, h -> h.read(s -> s.summary().ptr()));
            meters.gauge(MetricNames.ADMISSION_WTR, tags, this, h -> h.read(s -> s.summary().wtr()));
        }

        private void fraction(Tags tags, String kind, java.util.function.ToDoubleFunction<Justice.Fractions> f) {
            meters.gauge(MetricNames.ADMISSION_CPU_FRACTION, tags.and(MetricNames.KIND, kind), this,
                    h -> h.read(s -> s.policy() instanceof Justice j ? f.applyAsDouble(j.fractions()) : Double.NaN));
        }

        <T extends Number> double read(Function<ClusterAdmission, T> f) {
            lock.lock();
            try {
                return f.apply(state).doubleValue();
            } finally {
                lock.unlock();
            }
        }
    }

    void start(@Observes StartupEvent event) {
        publisher = new DecisionPublisher(kafkaConfig);
        poller = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "fairledger-admission"));
        poller.scheduleWithFixedDelay(this::pollSafely, 0, config.admission().pollInterval().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (poller != null) {
            poller.shutdown();
            poller.awaitTermination(10, TimeUnit.SECONDS);
        }
        if (publisher != null) {
            publisher.close();
        }
    }

    private void pollSafely() {
        try {
            poll();
        } catch (RuntimeException e) {
            LOG.error("Admission poll failed; retrying at the next poll", e);
        }
    }

    /** Sequences waiting Kafka rows, catches every cluster up with its log, and writes due timer passes. */
    void poll() {
        AdmissionLog.Heads heads = log.heads();
        for (String cluster : heads.waiting()) {
            LogEntry.PolicyChange initial = heads.last().containsKey(cluster) ? null : initialPolicyOrNull(cluster);
            log.sequencePending(cluster, initial, clock.millis(), holder(cluster).mine);
        }
        for (Map.Entry<String, Long> head : heads.last().entrySet()) {
            Holder h = holder(head.getKey());
            if (h.state.position() < head.getValue() || !h.mine.isEmpty()) {
                catchUp(h);
            }
        }
        long now = clock.millis();
        for (Holder h : clusters.values()) {
            boolean due;
            h.lock.lock();
            try {
                due = h.state.needsTimer() && now - h.state.nowMillis() >= config.admission().tickInterval().toMillis();
            } finally {
                h.lock.unlock();
            }
            if (due) {
                log.append(h.state.cluster(), "tick:" + now + ":" + UUID.randomUUID(), now, LogEntry.TICK, Map.of(),
                        null, h.mine);
                catchUp(h);
            }
        }
    }

    private Holder holder(String cluster) {
        return clusters.computeIfAbsent(cluster, Holder::new);
    }

    /** Applies every row after the state's position; publishes the decisions of rows this server sequenced. */
    private void catchUp(Holder h) {
        h.lock.lock();
        try {
            while (true) {
                List<LogEntry> rows = log.after(h.state.cluster(), h.state.position(), CHUNK);
                for (LogEntry row : rows) {
                    Applied applied = h.state.apply(row);
                    for (DecisionEvent d : applied.decisions()) {
                        meters.counter(MetricNames.ADMISSION_DECISIONS, MetricNames.CLUSTER, d.cluster(),
                                MetricNames.OUTCOME, d.outcome().toLowerCase()).increment();
                    }
                    if (h.mine.remove(row.position())) {
                        applied.decisions().forEach(publisher::publish);
                        if (awaited(row)) {
                            h.results.put(row.position(), applied);
                        }
                    }
                    if (applied.refusal() != null) {
                        LOG.debugf("Admission log %s position %d refused: %s", h.state.cluster(), row.position(),
                                applied.refusal());
                    }
                }
                if (rows.size() < CHUNK) {
                    return;
                }
            }
        } finally {
            h.lock.unlock();
        }
    }

    /** Rows whose outcome a request thread waits for (and removes from the results). */
    private static boolean awaited(LogEntry row) {
        return switch (row.kind()) {
            case LogEntry.HTTP_JOB, LogEntry.HTTP_COMPLETION, LogEntry.HTTP_WORKFLOW -> true;
            case LogEntry.POLICY_CHANGE -> row.eventId().startsWith("policy:") && !row.eventId().equals(
                    AdmissionLog.INITIAL_POLICY_ID);
            default -> false;
        };
    }

    /**
     * Runs {@code f} on the cluster's state, caught up with its log, under the cluster's lock.
     *
     * @throws DomainException
     *             404 when the cluster has no admission log yet and is unknown
     */
    public <T> T read(String cluster, Function<ClusterAdmission, T> f) {
        Holder h = clusters.get(cluster);
        if (h == null) {
            if (log.after(cluster, 0, 1).isEmpty()) {
                return f.apply(new ClusterAdmission(cluster)); // no log: nothing to keep (nor to name in metrics)
            }
            h = holder(cluster);
        }
        catchUp(h);
        h.lock.lock();
        try {
            return f.apply(h.state);
        } finally {
            h.lock.unlock();
        }
    }

    /**
     * Appends a row for {@code cluster} (writing the default policy first when its log is empty), applies it, and
     * returns what it did.
     *
     * @throws DomainException
     *             404 for an unknown cluster, 409 without ledger settings or when {@code eventId} was used already
     */
    public Applied append(String cluster, String eventId, Instant at, String kind, Object payload) {
        Holder h = holder(cluster);
        LogEntry.PolicyChange initial = h.state.position() > 0 ? null : initialPolicy(cluster);
        long position = log.append(cluster, eventId, at.toEpochMilli(), kind, payload, initial, h.mine);
        if (position < 0) {
            throw new Conflict(eventId.substring(eventId.indexOf(':') + 1) + " was already "
                    + (kind.equals(LogEntry.HTTP_COMPLETION) ? "reported" : "submitted") + " on cluster " + cluster);
        }
        catchUp(h);
        Applied applied = h.results.remove(position);
        if (applied == null) {
            throw new IllegalStateException("row " + position + " of " + cluster + " was not applied");
        }
        return applied;
    }

    /**
     * Makes {@code settings} the cluster's policy from now on, audited in the same transaction; returns the new
     * state's settings and the instant the change took effect.
     */
    public LogEntry.PolicyChange changePolicy(String cluster, PolicySettings settings) {
        Holder h = holder(cluster);
        catchUp(h);
        LogEntry.PolicyChange change = new LogEntry.PolicyChange(settings.normalised(), capacity(cluster));
        Instant at = clock.instant();
        PolicyView before = read(cluster, s -> s.position() == 0 ? null : view(s));
        long position = QuarkusTransaction.requiringNew().call(() -> {
            LogEntry.PolicyChange initial = before != null ? null : change;
            long p = log.append(cluster, "policy:" + UUID.randomUUID(), at.toEpochMilli(), LogEntry.POLICY_CHANGE,
                    change, initial, h.mine);
            audit.record(cluster, "admission-policy", before,
                    new PolicyView(cluster, change.settings(), change.capacity(), at), at);
            return p;
        });
        catchUp(h);
        h.results.remove(position);
        return change;
    }

    /** The cluster's policy as the admin API shows it (the default one, not yet in force, before any row). */
    public PolicyView policy(String cluster) {
        return read(cluster, s -> s.position() == 0
                ? new PolicyView(cluster, PolicySettings.defaults(), capacity(cluster), null)
                : view(s));
    }

    /** A cluster's admission policy, its capacity, and since when it is in force (null: not yet). */
    public record PolicyView(String cluster, PolicySettings settings, int capacityCpus, Instant effectiveFrom) {
    }

    private static PolicyView view(ClusterAdmission s) {
        return new PolicyView(s.cluster(), s.settings(), s.capacity(), s.policySince());
    }

    private LogEntry.PolicyChange initialPolicy(String cluster) {
        return new LogEntry.PolicyChange(PolicySettings.defaults(), capacity(cluster));
    }

    private LogEntry.PolicyChange initialPolicyOrNull(String cluster) {
        try {
            return initialPolicy(cluster);
        } catch (DomainException e) {
            return null;
        }
    }

    /** Whole CPUs of the cluster's ledger settings. */
    private int capacity(String cluster) {
        LedgerSettings settings = QuarkusTransaction.joiningExisting().call(() -> inForce.settings(cluster));
        int cpus = (int) Math.floor(settings.capacity().vcores());
        if (cpus < 1) {
            throw new Conflict("cluster '" + cluster + "' has a capacity of "
                    + settings.capacity().vcores() + " vcores: admission needs at least 1 CPU");
        }
        return cpus;
    }
}
