package io.fairledger.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import javax.sql.DataSource;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.config.FairledgerConfig;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.Invalid;
import io.fairledger.tenancy.LedgerSettings;

/**
 * A cluster's statements as read: closed periods as stored, read and never recomputed, then the periods that have
 * ended but are not closed yet ({@code provisional}), as the live ledger states them ({@link EndedPeriods}): no request
 * replays the facts. Periods are closed by {@link ClosingService}; what-ifs are {@link WhatIfService}'s.
 */
@ApplicationScoped
public class StatementService {

    @Inject
    SettingsInForce inForce;

    @Inject
    ObjectMapper json;

    @Inject
    DataSource dataSource;

    @Inject
    LedgerKeys keys;

    @Inject
    EndedPeriods ended;

    @Inject
    FairledgerConfig config;

    private ClosedJsonCache closedJson;
    private ProvisionalStatements provisional;

    @PostConstruct
    void hold() {
        closedJson = new ClosedJsonCache(config.statements().closedCache());
        provisional = new ProvisionalStatements(ended, json);
    }

    /**
     * Statements of every period ended by {@code until}: the closed ones as stored (with the adjustment lines they
     * carry), then the provisional ones from the live ledger, as of its latest fact. A period that has not ended is
     * not listed, however far {@code until} lies in the future.
     *
     * @throws Invalid when {@code until} is before the cluster's registration
     */
    public List<StatementView> statements(String clusterId, Instant until) {
        LedgerSettings settings = inForce.settingsUntil(clusterId, until);
        // closed periods are contiguous: those ended by until are a prefix, and a provisional period after that prefix
        // ends after until unless the prefix holds every closed period
        List<PeriodCloser.ClosedPeriod> closed = table(clusterId, settings).closedBy(until.toEpochMilli());
        List<StatementView> out = new ArrayList<>();
        closed.forEach(c -> out.add(c.statement()));
        out.addAll(provisional.views(clusterId, PeriodCloser.closedUntil(closed), until, settings.currency(),
                tenant -> true));
        return out;
    }

    /**
     * One page of a list of statements: at most the page's limit of them, in period order, and whether more follow.
     * A statement's key in the list is its end, so a page starts after the previous page's last end whether that
     * period closed in between or not: every period is listed once.
     *
     * @param items the page's statements
     * @param more  whether statements follow the page's last
     */
    public record Page(List<StatementView> items, boolean more) {
    }

    /**
     * A page of statements as the JSON array the API writes for it.
     *
     * @param json    the page's statements
     * @param lastEnd the end of the page's last statement (null: the page is empty)
     * @param more    whether statements follow the page's last
     */
    public record JsonPage(JsonArrayText json, Instant lastEnd, boolean more) {
    }

    /**
     * A page of {@link #statements} as the JSON text the API writes for it, without parsing the stored statements:
     * the periods ended after {@code afterMs} (null: from the first) and by {@code until}, the first {@code limit} of
     * them. The closed ones are sent as stored ({@link ClosedStatementReads#apiJson}), read from PostgreSQL once and
     * then held ({@link ClosedJsonCache}, {@code fairledger.statements.closed-cache}), the provisional ones written by
     * {@code json} once per live view. The same text, byte for byte, as {@code json} writing those statements.
     */
    public JsonPage statementsJson(String clusterId, Instant until, Long afterMs, int limit) {
        LedgerSettings settings = inForce.settingsUntil(clusterId, until);
        List<ClosedStatementReads.ApiJson> page = new ArrayList<>(closedJson.texts(clusterId,
                new ClosedStatementReads(dataSource, json, clusterId), afterMs == null ? Long.MIN_VALUE : afterMs,
                until.toEpochMilli(), limit + 1));
        if (page.size() <= limit) {
            Instant closedUntil = page.isEmpty() ? instant(afterMs) : page.get(page.size() - 1).end();
            page.addAll(provisional.texts(clusterId, closedUntil, until, settings.currency()));
        }
        boolean more = page.size() > limit;
        List<ClosedStatementReads.ApiJson> items = more ? page.subList(0, limit) : page;
        return new JsonPage(new JsonArrayText(items.stream().map(ClosedStatementReads.ApiJson::text).toList()),
                items.isEmpty() ? null : items.get(items.size() - 1).end(), more);
    }

    /**
     * A page of {@link #statements} with only the lines of {@code tenant} (and, with {@code subtree}, of every tenant
     * under it): the periods ended after {@code afterMs} (null: from the first) and by {@code until}, the first
     * {@code limit} of them; the closed periods' lines read from their own rows
     * ({@link ClosedStatementReads#closedWithLinesOf}), so the cost is that of the lines returned. Every period is
     * listed, with no lines where the tenant has none; the closed ones keep their {@code totalCharge}.
     */
    public Page statementsOf(String clusterId, TenantPath tenant, boolean subtree, Instant until, Long afterMs,
            int limit) {
        LedgerSettings settings = inForce.settingsUntil(clusterId, until);
        List<StatementView> page = new ArrayList<>(new ClosedStatementReads(dataSource, json, clusterId)
                .closedWithLinesOf(tenant, subtree, afterMs == null ? Long.MIN_VALUE : afterMs,
                        until.toEpochMilli(), limit + 1));
        if (page.size() <= limit) {
            Instant closedUntil = page.isEmpty() ? instant(afterMs) : page.get(page.size() - 1).end();
            page.addAll(provisional.views(clusterId, closedUntil, until, settings.currency(),
                    path -> subtree ? path.isWithin(tenant) : path.equals(tenant)));
        }
        boolean more = page.size() > limit;
        return new Page(more ? List.copyOf(page.subList(0, limit)) : page, more);
    }

    /** {@link #statementsOf} every period ended by {@code until}, in one list. */
    public List<StatementView> statementsOf(String clusterId, TenantPath tenant, boolean subtree, Instant until) {
        return statementsOf(clusterId, tenant, subtree, until, null, Integer.MAX_VALUE - 1).items();
    }

    /**
     * The previous page's last end ({@code afterMs}) as an instant; null for the first page. With no closed period on
     * a page, the provisional ones follow it: every closed period ended by then.
     */
    private static Instant instant(Long afterMs) {
        return afterMs == null ? null : Instant.ofEpochMilli(afterMs);
    }

    /** The settings each closed period of {@code clusterId} was kept under, by period id (its prices, for bills). */
    public Map<String, LedgerSettings> closedSettings(String clusterId) {
        Map<String, LedgerSettings> out = new HashMap<>();
        table(clusterId, inForce.settings(clusterId)).closings(Long.MAX_VALUE)
                .forEach(c -> out.put(c.period(), c.settings()));
        return out;
    }

    /** The end of the last closed period of {@code clusterId}, null when none is closed (for retention). */
    public Instant closedUntil(String clusterId) {
        List<ClosedStatementTable.Closing> closed = table(clusterId, inForce.settings(clusterId))
                .closings(Long.MAX_VALUE);
        return closed.isEmpty() ? null : closed.get(closed.size() - 1).end();
    }

    /**
     * The first closed period of {@code clusterId} ending after {@code afterMs} that was kept under other settings
     * than the live ones, if any (for retention: a late fact for it would be priced from a replay under those
     * settings, which needs the facts from the registration).
     */
    public Optional<String> closedUnderOtherSettings(String clusterId, long afterMs) {
        LedgerSettings live = inForce.settings(clusterId);
        return table(clusterId, live).closings(Long.MAX_VALUE).stream()
                .filter(c -> c.end().toEpochMilli() > afterMs && !c.settings().equals(live))
                .map(ClosedStatementTable.Closing::period).findFirst();
    }

    private ClosedStatementTable table(String clusterId, LedgerSettings settings) {
        return new ClosedStatementTable(dataSource, json, clusterId, settings, keys);
    }
}
