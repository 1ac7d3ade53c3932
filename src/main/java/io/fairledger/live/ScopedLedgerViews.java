package io.fairledger.live;

import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.security.identity.SecurityIdentity;

import io.fairledger.accounting.StatementCsv;
import io.fairledger.accounting.StatementService;
import io.fairledger.accounting.StatementView;
import io.fairledger.core.ledger.TenantAccount;
import io.fairledger.core.model.TenantPath;
import io.fairledger.errors.AccessDenied;
import io.fairledger.errors.Invalid;
import io.fairledger.errors.NotFound;
import io.fairledger.live.LiveViewsModel.FairnessHistory;
import io.fairledger.live.LiveViewsModel.FairnessView;
import io.fairledger.live.LiveViewsModel.GrantExplanation;
import io.fairledger.live.LiveViewsModel.TenantView;
import io.fairledger.security.Roles;
import io.fairledger.security.TenantScope;

/**
 * The live ledger's numbers as the caller may see them: a tenant its own subtree's numbers, everybody with a tenant in
 * a cluster (and resource managers) the cluster's aggregates, an admin everything. The REST resource and the portal
 * both read through here, so the {@code fairledger_tenants} claim is applied once, the same way for both: another
 * tenant's numbers are refused before any of them is read. The roles allowed at all are checked at the edge (the
 * resource's {@code RolesAllowed}, the portal's reader check).
 */
@ApplicationScoped
public class ScopedLedgerViews {

    @Inject
    LiveLedgers ledgers;

    @Inject
    SecurityIdentity identity;

    @Inject
    StatementService statements;

    /** The cluster's aggregates of the open period; {@code AccessDenied} for a tenant with no tenant in it. */
    public FairnessView fairness(String clusterId) {
        TenantScope scope = TenantScope.of(identity);
        boolean privileged = scope.seesAll() || identity.hasRole(Roles.RESOURCE_MANAGER);
        if (!privileged && scope.tenants(clusterId).isEmpty()) {
            throw new AccessDenied("you have no tenant in cluster '" + clusterId + "'");
        }
        return FairnessView.of(ledgers.view(clusterId));
    }

    /** One tenant now and over the open period. */
    public TenantView tenant(String clusterId, String tenant) {
        LiveView view = ledgers.view(clusterId);
        return LiveViewsModel.tenant(view, account(view, tenant));
    }

    /**
     * Every tenant's numbers now, as {@code fairledger shares} prints them (Slurm's {@code sshare}): weight, share,
     * open-period usage, rho, lending balance and grant, in path order; an admin or a resource manager sees every
     * tenant, a tenant the tenants of its own subtrees.
     */
    public Shares shares(String clusterId) {
        LiveView view = ledgers.view(clusterId);
        TenantScope scope = TenantScope.of(identity);
        boolean privileged = scope.seesAll() || identity.hasRole(Roles.RESOURCE_MANAGER);
        if (!privileged && scope.tenants(clusterId).isEmpty()) {
            throw new AccessDenied("you have no tenant in cluster '" + clusterId + "'");
        }
        return new Shares(clusterId, view.asOf(), view.openPeriod().id(), view.tenants().stream()
                .filter(a -> privileged || scope.maySee(clusterId, a.path().toString()))
                .map(a -> LiveViewsModel.tenant(view, a)).toList());
    }

    /** Every visible tenant of a cluster now, in path order ({@link #shares}). */
    public record Shares(String cluster, Instant asOf, String period, List<TenantView> tenants) {
    }

    /** A tenant's fairness degree per period: every closed period, then the open one to date. */
    public FairnessHistory fairnessHistory(String clusterId, String tenant) {
        LiveView view = ledgers.view(clusterId);
        TenantPath path = account(view, tenant).path();
        String id = path.toString();
        List<StatementView> closed = statements.statementsOf(clusterId, path, false, view.asOf());
        return new FairnessHistory(clusterId, id, LiveViewsModel.degrees(id, closed, view.openStatementOf(id)));
    }

    /** Why a tenant gets its grant; {@code NotFound} for the root, which is the whole cluster. */
    public GrantExplanation grantExplanation(String clusterId, String tenant) {
        LiveView view = ledgers.view(clusterId);
        String id = account(view, tenant).path().toString();
        return view.levelOf(id).map(level -> GrantExplanation.of(view, id, level))
                .orElseThrow(() -> new NotFound("the root is not granted: it is the whole cluster"));
    }

    /** A tenant's statements of every period ended by now, restricted to its subtree, without the cluster totals. */
    public List<StatementView> tenantStatements(String clusterId, String tenant) {
        return tenantStatements(clusterId, tenant, null, Integer.MAX_VALUE - 1).items();
    }

    /**
     * A page of {@link #tenantStatements}: the periods ended after {@code afterMs} (null: from the first), the first
     * {@code limit} of them.
     */
    public StatementService.Page tenantStatements(String clusterId, String tenant, Long afterMs, int limit) {
        authorise(clusterId, tenant);
        StatementService.Page page = statements.statementsOf(clusterId, path(tenant), true, Instant.now(), afterMs,
                limit);
        return new StatementService.Page(page.items().stream().map(StatementView::withoutTotal).toList(),
                page.more());
    }

    /** {@link #tenantStatements} as CSV, each period in the currency it was closed in. */
    public String tenantStatementsCsv(String clusterId, String tenant) {
        return StatementCsv.write(tenantStatements(clusterId, tenant));
    }

    private TenantAccount account(LiveView view, String tenant) {
        authorise(view.cluster(), tenant);
        String id = path(tenant).toString();
        return view.account(id).orElseThrow(() -> new NotFound("cluster '" + view.cluster()
                + "' has no tenant '" + tenant + "' in its ledger"));
    }

    private void authorise(String clusterId, String tenant) {
        ledgers.view(clusterId);
        TenantScope scope = TenantScope.of(identity);
        if (!scope.maySee(clusterId, tenant)) {
            throw new AccessDenied("tenant '" + tenant + "' of cluster '" + clusterId
                    + "' is not yours: your token names " + scope.tenants(clusterId));
        }
    }

    private static TenantPath path(String tenant) {
        try {
            return TenantPath.parse(tenant);
        } catch (IllegalArgumentException e) {
            throw new Invalid("'" + tenant + "' is not a tenant path: " + e.getMessage());
        }
    }
}
