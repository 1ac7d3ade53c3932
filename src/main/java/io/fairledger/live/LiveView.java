package io.fairledger.live;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

import io.fairledger.accounting.StatementView;
import io.fairledger.core.chargeback.Period;
import io.fairledger.core.chargeback.Statement;
import io.fairledger.core.chargeback.StatementToDate;
import io.fairledger.core.chargeback.TenantStatement;
import io.fairledger.core.fairness.FairnessReport;
import io.fairledger.core.grant.GrantLevel;
import io.fairledger.core.ledger.AccountTable;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.PathOrder;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantPath;

/**
 * What one cluster's live ledger says as of its latest event, immutable, so any number of readers share it without
 * locks: every account (root first), fairness over the open period's leaf tenants, the tree grant for the next
 * interval, and the open period's statement to date. The grants, the statement and the fairness, which cost the most
 * with many tenants (every level's grant round, every line priced), are computed from the accounts when first read and
 * then kept: a tick that changes the ledger (an event, a settings change) publishes the view without them, so a change
 * is served without waiting for them; the tick then computes the grants when a reader asked for those of the view
 * before ({@link LiveLedgers}), so that a resource manager polling them does not wait either.
 */
public final class LiveView {

    private final String cluster;
    private final Instant asOf;
    private final long facts;
    private final long grantIntervalMs;
    private final ResourceVector capacity;
    private final AccountTable accounts;
    private final Once<List<GrantLevel>> grants;
    private volatile boolean grantsRead;
    private final List<Statement> ended;
    private final String currency;
    private final StatementToDate toDate;
    private final Once<StatementView> openStatement;
    private final Once<FairnessReport> fairness;
    private final Once<List<TenantAccount>> leaves;
    private final Once<List<TenantAccount>> tenants;
    private final Once<Map<String, StatementView.Line>> lineByTenant;
    /** The row of each node's account in {@link #accounts}, by its path. */
    private final Once<Map<String, Integer>> rowByTenant;
    /** The nodes with children: their lines are inner. */
    private final Once<Set<TenantPath>> parents;

    /**
     * @param cluster
     *            the cluster
     * @param asOf
     *            the instant of the latest applied event (or of the registration)
     * @param facts
     *            facts applied
     * @param grantIntervalMs
     *            the interval the grants hold for
     * @param capacity
     *            the cluster's capacity
     * @param accounts
     *            every node's account at {@code asOf}, root first
     * @param grants
     *            the tree grant, parents before children, from {@code accounts}, computed when first read
     * @param toDate
     *            the open period's statement to date, from {@code accounts} ({@code Replay#openStatement(long, List)}),
     *            computed when first read; the lines of a few tenants are computed alone when they can be
     * @param ended
     *            the statements of the periods the ledger has ended and the closer had not stored when it last looked,
     *            under the settings in force (the provisional ones are those not closed yet); every ended period in
     *            {@code fairledger account}, which stores none ({@link LiveLedger#release})
     * @param currency
     *            the ISO 4217 code of its money (ledger settings' {@code chargeback.currency})
     */
    public LiveView(String cluster, Instant asOf, long facts, long grantIntervalMs, ResourceVector capacity,
            AccountTable accounts, Supplier<List<GrantLevel>> grants, StatementToDate toDate,
            List<Statement> ended, String currency) {
        this.cluster = cluster;
        this.asOf = asOf;
        this.facts = facts;
        this.grantIntervalMs = grantIntervalMs;
        this.capacity = capacity;
        this.accounts = accounts;
        this.grants = new Once<>(() -> List.copyOf(grants.get()));
        this.ended = List.copyOf(ended);
        this.currency = currency;
        this.toDate = toDate;
        this.openStatement = new Once<>(() -> StatementView.of(toDate.whole(), StatementView.PROVISIONAL, currency));
        this.leaves = new Once<>(() -> accounts.rows(PathOrder.leaves(accounts.paths())));
        this.tenants = new Once<>(() -> accounts.rows(PathOrder.nonRoot(accounts.paths())));
        this.fairness = new Once<>(() -> FairnessReport.ofPeriod(leaves()));
        this.lineByTenant = new Once<>(() -> {
            Map<String, StatementView.Line> out = new HashMap<>();
            openStatement().lines().forEach(l -> out.putIfAbsent(l.tenant(), l));
            return out;
        });
        this.rowByTenant = new Once<>(() -> {
            Map<String, Integer> out = new HashMap<>();
            for (int row = 0; row < accounts.size(); row++) {
                out.putIfAbsent(accounts.path(row).toString(), row);
            }
            return out;
        });
        this.parents = new Once<>(() -> PathOrder.parents(accounts.paths()));
    }

    public String cluster() {
        return cluster;
    }

    /** The instant of the latest applied event (or of the registration). */
    public Instant asOf() {
        return asOf;
    }

    /** Facts applied. */
    public long facts() {
        return facts;
    }

    /** The interval the grants hold for. */
    public long grantIntervalMs() {
        return grantIntervalMs;
    }

    public ResourceVector capacity() {
        return capacity;
    }

    /** Every node's account at {@link #asOf}, root first. */
    public List<TenantAccount> accounts() {
        return accounts;
    }

    /** Rho, Psi, Omega, Jain's index and equality over the leaves, open period. */
    public FairnessReport fairness() {
        return fairness.get();
    }

    /** The tree grant, parents before children. */
    public List<GrantLevel> grants() {
        grantsRead = true;
        return grants.get();
    }

    /** Computes the grants ({@link #grants}) for the readers to come, without counting as a read. */
    void computeGrants() {
        grants.get();
    }

    /** Whether a reader has asked for the grants of this view. */
    boolean grantsRead() {
        return grantsRead;
    }

    /** Whether the grants of this view have been computed (for tests). */
    boolean grantsComputed() {
        return grants.computed();
    }

    /** The open period's statement to date. */
    public StatementView openStatement() {
        return openStatement.get();
    }

    /** The open period up to {@link #asOf}. */
    public Period openPeriod() {
        return toDate.period();
    }

    /**
     * The open period's statement to date with only {@code tenant}'s line (none for the root or a tenant the ledger does
     * not know) and no total, without pricing every tenant where the charge model allows ({@link #line}).
     */
    public StatementView openStatementOf(String tenant) {
        return StatementView.provisional(toDate, currency, line(tenant).stream().toList());
    }

    /** The ended periods' statements not stored when the ledger last looked (see the constructor). */
    public List<Statement> ended() {
        return ended;
    }

    /** The ISO 4217 code of the cluster's money. */
    public String currency() {
        return currency;
    }

    /**
     * The leaf tenants' accounts (the ones that run tasks and are billed), in path order: the order is found when first
     * read and kept (a dashboard polling the fairness reads them at every poll), each account made when read.
     */
    public List<TenantAccount> leaves() {
        return leaves.get();
    }

    /** Every tenant but the root (inner ones too), in path order, found as {@link #leaves} are. */
    public List<TenantAccount> tenants() {
        return tenants.get();
    }

    /** The account of {@code tenant}, if the ledger knows it. */
    public Optional<TenantAccount> account(String tenant) {
        return Optional.ofNullable(rowByTenant.get().get(tenant)).map(accounts::get);
    }

    /** The grant level in which {@code tenant} competes with its siblings, if any. */
    public Optional<GrantLevel> levelOf(String tenant) {
        return grants().stream().filter(l -> l.grants().grants().stream().anyMatch(g -> g.id().equals(tenant)))
                .findFirst();
    }

    /** Every node's grant per resource type (millicores, MB, GPUs), by tenant. */
    public Map<String, double[]> grantByTenant() {
        Map<String, double[]> out = new HashMap<>();
        for (GrantLevel level : grants()) {
            level.grants().grants().forEach(g -> out.put(g.id(), g.allocation()));
        }
        return out;
    }

    /** The open-period statement line of {@code tenant}, if it is billed ({@link #line(TenantAccount)}). */
    public Optional<StatementView.Line> line(String tenant) {
        return account(tenant).flatMap(this::line);
    }

    /**
     * The open-period statement line of {@code account}, one of {@link #accounts}, if it is billed (not the root): the
     * whole statement's when that has been computed or the charge model splits a cost over every tenant, else computed
     * alone ({@link StatementToDate#line}), the same line.
     */
    public Optional<StatementView.Line> line(TenantAccount account) {
        if (account.path().isRoot()) {
            return Optional.empty();
        }
        if (!openStatement.computed()) {
            Optional<TenantStatement> alone = toDate.line(account, parents.get().contains(account.path()));
            if (alone.isPresent()) {
                return alone.map(StatementView::line);
            }
        }
        return Optional.ofNullable(lineByTenant.get().get(account.path().toString()));
    }

    /** A value computed by its first reader and kept for the others, who wait for it meanwhile. */
    private static final class Once<T> {

        private Supplier<T> compute;
        private T value;

        Once(Supplier<T> compute) {
            this.compute = compute;
        }

        synchronized boolean computed() {
            return compute == null;
        }

        synchronized T get() {
            if (compute != null) {
                value = compute.get();
                compute = null;
            }
            return value;
        }
    }
}
