package io.fairledger.core.replay;

import io.fairledger.core.chargeback.AdjustmentLine;
import io.fairledger.core.chargeback.Chargeback;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.StatementBook;
import io.fairledger.core.ledger.ClusterLedger;
import io.fairledger.core.ledger.LedgerEvent;
import io.fairledger.core.ledger.TenantAccount;
import java.util.ArrayList;
import java.util.List;

/**
 * The one deterministic replay from events plus configuration to ledger and statements, shared by the server (start-up
 * and late events), the offline {@code account} command and the simulator.
 *
 * <p>
 * Events are put in {@link CanonicalOrder}, so simultaneous events in any order give the same result. Events of
 * another cluster are counted and skipped. Periods are closed at their boundaries before any event at the boundary
 * instant is applied; a period ending at or before {@link ReplayConfig#until()} is closed and stated.
 *
 * <p>
 * Late events: the live ledger rejects an event older than its clock. The caller re-runs {@link #run} with the full
 * event list including it and passes the result to {@link #adjustments}, which turns each changed closed period into
 * adjustment lines for the open period's statement, naming the corrected period.
 */
public final class Replay {

    private Replay() {
    }

    /** Replays {@code events} (any order) under {@code config}. */
    public static ReplayResult run(ReplayConfig config, List<LedgerEvent> events) {
        List<LedgerEvent> ordered = new ArrayList<>(events);
        ordered.sort(CanonicalOrder.COMPARATOR);
        ClusterLedger ledger = new ClusterLedger(config.cluster());
        List<Statement> statements = new ArrayList<>();
        Period open = config.periods().periodOf(config.cluster().registeredAt());
        for (LedgerEvent e : ordered) {
            if (e.at() > config.until()) {
                break;
            }
            while (e.at() >= open.end()) {
                open = close(config, ledger, open, statements);
            }
            ledger.apply(e);
        }
        while (config.until() >= open.end()) {
            open = close(config, ledger, open, statements);
        }
        List<TenantAccount> accounts = ledger.accounts(config.until());
        return new ReplayResult(ledger, statements, accounts, ledger.ignoredEvents());
    }

    private static Period close(ReplayConfig config, ClusterLedger ledger, Period open, List<Statement> out) {
        List<TenantAccount> accounts = ledger.closePeriod(open.end());
        out.add(Chargeback.statement(config.cluster().clusterId(), open, accounts, config.chargeback()));
        return config.periods().periodOf(open.end());
    }

    /**
     * Adjustment lines for every period closed in {@code book} whose statement differs in {@code rerun} (a replay that
     * includes late events). The closed statements are left as they are.
     */
    public static List<AdjustmentLine> adjustments(StatementBook book, ReplayResult rerun) {
        List<AdjustmentLine> out = new ArrayList<>();
        for (Statement s : rerun.statements()) {
            if (book.closed(s.period().id()).isPresent()) {
                out.addAll(book.adjustmentsFor(s, "late events for period " + s.period().id()));
            }
        }
        return out;
    }
}
