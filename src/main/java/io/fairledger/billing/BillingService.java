package io.fairledger.billing;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.security.identity.SecurityIdentity;

import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.AccessDenied;
import io.fairledger.errors.Conflict;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;
import io.fairledger.security.TenantScope;
import io.fairledger.tenancy.LedgerSettings;
import io.fairledger.tenancy.RegisteredCluster;
import io.fairledger.tenancy.TenancyService;

/**
 * Bills of the closed periods as the caller may see them: the FOCUS export of a cluster (an admin every tenant's
 * rows, a tenant the rows of its own subtrees, by {@link TenantScope}, as {@code live.ScopedLedgerViews} applies it)
 * and a tenant's invoice for one closed period. Only closed periods are billed: a provisional one may still change.
 */
@ApplicationScoped
public class BillingService {

    @Inject
    StatementService statements;

    @Inject
    TenancyService tenancy;

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper json;

    /**
     * The FOCUS rows of the closed periods lying within {@code [from, to)} ({@code from} null: from the
     * registration).
     *
     * @throws Invalid when {@code from} is not before {@code to}, or {@code to} is before the registration
     */
    public String focusCsv(String clusterId, Instant from, Instant to) {
        if (from != null && !from.isBefore(to)) {
            throw Invalid.field("query.from", "from (" + from + ") must be before to (" + to + ")");
        }
        TenantScope scope = TenantScope.of(identity);
        if (!scope.seesAll() && scope.tenants(clusterId).isEmpty()) {
            throw new AccessDenied("you have no tenant in cluster '" + clusterId + "'");
        }
        List<StatementView> all = statements.statements(clusterId, to);
        Map<String, LedgerSettings> keptUnder = statements.closedSettings(clusterId);
        Map<String, StatementView> periods = byPeriod(all);
        Predicate<String> visible = tenant -> scope.maySee(clusterId, tenant);
        List<ChargeRow> rows = new ArrayList<>();
        for (StatementView s : all) {
            if (StatementView.CLOSED.equals(s.state()) && (from == null || !s.start().isBefore(from))) {
                rows.addAll(ChargeRows.of(s, keptUnder.get(s.period()), periods, visible));
            }
        }
        return FocusCsv.write(rows, issuer(clusterId));
    }

    /**
     * The invoice of {@code tenant} (a leaf) for the closed {@code period}.
     *
     * @throws AccessDenied for another tenant's invoice
     * @throws NotFound     for a period the cluster does not have, or in which the tenant has no line
     * @throws Conflict     for a period not closed yet
     */
    public Invoice invoice(String clusterId, String tenant, String period) {
        if (!TenantScope.of(identity).maySee(clusterId, tenant)) {
            throw new AccessDenied("tenant '" + tenant + "' of cluster '" + clusterId + "' is not yours");
        }
        TenantPath path = path(tenant);
        Map<String, StatementView> periods = byPeriod(statements.statementsOf(clusterId, path, false, Instant.now()));
        StatementView s = periods.get(period);
        if (s == null) {
            throw new NotFound("cluster '" + clusterId + "' has no ended period '" + period + "'");
        }
        if (!StatementView.CLOSED.equals(s.state())) {
            throw new Conflict("period " + period + " is " + s.state() + ": only closed periods are invoiced, once "
                    + "no late event can change them");
        }
        String id = path.toString();
        StatementView.Line line = s.lines().stream().filter(l -> l.tenant().equals(id)).findFirst()
                .orElseThrow(() -> new NotFound("tenant '" + id + "' has no line in period " + period));
        if (line.inner()) {
            throw new Invalid("'" + id + "' is an inner tenant: it is never billed, the leaves under it are");
        }
        LedgerSettings keptUnder = statements.closedSettings(clusterId).get(period);
        List<ChargeRow> rows = ChargeRows.of(s, keptUnder, periods, id::equals);
        int keptScale = keptUnder.toReplayConfig(clusterId, s.end()).chargeback().currencyScale();
        return Invoice.of(issuer(clusterId), clusterId, id, period, s.start(), s.end(), s.currency(), keptScale, rows,
                chainHash(clusterId, period, s.end()));
    }

    /**
     * The {@code chain.hash} of the closed statement of {@code period} (which ends at {@code end}) as the API writes
     * it, null when it carries none: the one page of the statements that starts at that period.
     */
    private String chainHash(String clusterId, String period, Instant end) {
        for (byte[] text : statements.statementsJson(clusterId, Instant.now(), end.toEpochMilli() - 1, 1).json()
                .elements()) {
            JsonNode statement;
            try {
                statement = json.readTree(text);
            } catch (IOException e) {
                throw new IllegalStateException("a stored statement of cluster '" + clusterId + "' is not JSON", e);
            }
            if (period.equals(statement.path("period").asText())) {
                JsonNode hash = statement.path("chain").path("hash");
                return hash.isTextual() ? hash.asText() : null;
            }
        }
        return null;
    }

    /** Who bills: the cluster's registered name (its operator's), else its id. */
    private String issuer(String clusterId) {
        RegisteredCluster cluster = tenancy.cluster(clusterId);
        return cluster.name() == null || cluster.name().isBlank() ? clusterId : cluster.name();
    }

    private static Map<String, StatementView> byPeriod(List<StatementView> list) {
        Map<String, StatementView> out = new LinkedHashMap<>();
        list.forEach(s -> out.put(s.period(), s));
        return out;
    }

    private static TenantPath path(String tenant) {
        try {
            return TenantPath.parse(tenant);
        } catch (IllegalArgumentException e) {
            throw new Invalid("'" + tenant + "' is not a tenant path: " + e.getMessage());
        }
    }
}
