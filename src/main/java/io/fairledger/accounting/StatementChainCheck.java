package io.fairledger.accounting;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.control.ActivateRequestContext;
import jakarta.inject.Inject;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import org.jboss.logging.Logger;

import io.fairledger.core.chain.ChainVerifier;
import io.fairledger.core.chain.ChainVerifier.Break;
import io.fairledger.core.chain.ChainVerifier.Reason;
import io.fairledger.core.chain.JsonText;
import io.fairledger.core.chain.StatementChain;
import io.fairledger.observability.MetricNames;
import io.fairledger.tenancy.TenancyService;

/**
 * The server's check of its own closed statements, at start and every {@code fairledger.ledger-chain.check-interval}:
 * per cluster, the statements as stored and as the API sends them are each checked by {@link ChainVerifier} against
 * the published keys, as {@code fairledger verify} checks a download, and each period's line rows (what tenants read)
 * must be its statement's lines. The first period that does not hold is logged and sets
 * {@code fairledger_statement_chain_broken{cluster}} to 1.
 */
@ApplicationScoped
public class StatementChainCheck {

    private static final Logger LOG = Logger.getLogger(StatementChainCheck.class);

    @Inject
    TenancyService tenancy;

    @Inject
    DataSource dataSource;

    @Inject
    ObjectMapper json;

    @Inject
    LedgerKeys keys;

    @Inject
    MeterRegistry registry;

    private final Map<String, AtomicInteger> broken = new ConcurrentHashMap<>();

    @Scheduled(every = "${fairledger.ledger-chain.check-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        try {
            checkAll();
        } catch (RuntimeException e) {
            LOG.warnf(e, "the check of the closed statements' chains failed; retried at the next one");
        }
    }

    /** Checks every cluster's chain, sets the metric and logs each first broken period; by cluster id. */
    @ActivateRequestContext
    public Map<String, Optional<Break>> checkAll() {
        Map<String, Optional<Break>> out = new LinkedHashMap<>();
        for (String clusterId : tenancy.clusterIds()) {
            Optional<Break> found = check(clusterId);
            gauge(clusterId).set(found.isPresent() ? 1 : 0);
            found.ifPresent(b -> LOG.errorf("cluster %s: closed statements do not hold from period %s (%s: %s); "
                    + "see docs/operations.md, FairledgerStatementChainBroken", clusterId, b.period(), b.reason(),
                    b.detail()));
            out.put(clusterId, found);
        }
        return out;
    }

    /**
     * The first closed period of {@code clusterId} that does not hold, if any: its statement as stored with its chain
     * columns, its text as the API sends it, or its line rows. The periods are read one at a time.
     */
    public Optional<Break> check(String clusterId) {
        ChainVerifier stored = new ChainVerifier(keys.publicKeys());
        ChainVerifier served = new ChainVerifier(keys.publicKeys());
        List<Break> found = new ArrayList<>();
        new ClosedStatementReads(dataSource, json, clusterId).forEachStored(row -> {
            Map<String, Object> statement = object(row.statement());
            if (row.chain() != null) {
                statement.put(StatementChain.MEMBER, JsonText.parse(text(row.chain())));
            }
            if (!row.linesMatch()) {
                found.add(new Break(row.period(), Reason.HASH, "its line rows (closed_statement_line, what tenants "
                        + "read) are not the lines of its statement"));
            }
            stored.next(statement).ifPresent(found::add);
            served.next(row.apiJson() == null ? statement : object(row.apiJson()))
                    .map(b -> new Break(b.period(), b.reason(), "as the API sends it: " + b.detail()))
                    .ifPresent(found::add);
            return found.isEmpty();
        });
        return found.stream().findFirst();
    }

    private AtomicInteger gauge(String clusterId) {
        return broken.computeIfAbsent(clusterId, id -> {
            AtomicInteger value = new AtomicInteger();
            Gauge.builder(MetricNames.STATEMENT_CHAIN_BROKEN, value, AtomicInteger::get)
                    .description("1 when a closed statement of the cluster does not hold in its signed chain")
                    .tag(MetricNames.CLUSTER, id).register(registry);
            return value;
        });
    }

    private String text(Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a chain link", e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(String text) {
        return (Map<String, Object>) JsonText.parse(text);
    }
}
