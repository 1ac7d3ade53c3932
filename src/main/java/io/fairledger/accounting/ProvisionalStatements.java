package io.fairledger.accounting;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.model.TenantPath;

/**
 * The provisional statements of a cluster: the periods its live ledger has ended ({@link EndedPeriods}) after the last
 * closed period, as of its latest fact. No request replays the facts.
 */
final class ProvisionalStatements {

    private final EndedPeriods ended;
    private final ObjectMapper json;

    /** Per cluster: the provisional statements' JSON texts, for the live ledger's list of ended periods they are of. */
    private final Map<String, Texts> textsByCluster = new ConcurrentHashMap<>();

    private record Texts(List<Statement> ended, String currency, List<byte[]> texts) {
    }

    ProvisionalStatements(EndedPeriods ended, ObjectMapper json) {
        this.ended = ended;
        this.json = json;
    }

    /**
     * The periods the live ledger has ended after {@code closedUntil} (null: none closed) and by {@code until}, with
     * only the lines of the tenants {@code kept} accepts.
     */
    List<StatementView> views(String clusterId, Instant closedUntil, Instant until, String currency,
            Predicate<TenantPath> kept) {
        List<StatementView> out = new ArrayList<>();
        for (Statement s : ended.ended(clusterId)) {
            if (listed(s, closedUntil, until)) {
                out.add(StatementView.of(s, StatementView.PROVISIONAL, currency, kept));
            }
        }
        return out;
    }

    /**
     * {@link #views} with every line, as the JSON text (UTF-8) of each with its period and end, written once per live
     * view: the live ledger hands out the same list until its view changes, so repeated reads between two facts write
     * nothing again.
     */
    List<ClosedStatementReads.ApiJson> texts(String clusterId, Instant closedUntil, Instant until, String currency) {
        List<Statement> periods = ended.ended(clusterId);
        List<byte[]> texts = texts(clusterId, periods, currency);
        List<ClosedStatementReads.ApiJson> out = new ArrayList<>();
        for (int i = 0; i < periods.size(); i++) {
            Statement s = periods.get(i);
            if (listed(s, closedUntil, until)) {
                out.add(new ClosedStatementReads.ApiJson(s.period().id(), Instant.ofEpochMilli(s.period().end()),
                        texts.get(i)));
            }
        }
        return out;
    }

    /** The JSON text of each of {@code periods} as a provisional statement in {@code currency}. */
    private List<byte[]> texts(String clusterId, List<Statement> periods, String currency) {
        Texts known = textsByCluster.get(clusterId);
        if (known != null && known.ended() == periods && known.currency().equals(currency)) {
            return known.texts();
        }
        List<byte[]> texts = new ArrayList<>(periods.size());
        try {
            for (Statement s : periods) {
                texts.add(json.writeValueAsBytes(StatementView.of(s, StatementView.PROVISIONAL, currency)));
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the statements of " + clusterId, e);
        }
        textsByCluster.put(clusterId, new Texts(periods, currency, texts));
        return texts;
    }

    /**
     * Whether the live ledger's ended period {@code s} is listed as provisional: it ended after the last closed period
     * ({@code closedUntil}, null when none is closed) and by {@code until}.
     */
    private static boolean listed(Statement s, Instant closedUntil, Instant until) {
        Instant end = Instant.ofEpochMilli(s.period().end());
        return (closedUntil == null || end.isAfter(closedUntil)) && !end.isAfter(until);
    }
}
