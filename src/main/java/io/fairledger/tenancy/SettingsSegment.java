package io.fairledger.tenancy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One entry of the ledger settings' {@code earlier} ({@link LedgerSettings}): the tenants, discount rate and prices in
 * force until {@code until}. The server writes an entry's tenants as what differs from the entry after it (the next
 * entry, or the settings themselves for the last): a change then stores what it changed, not a copy of every tenant
 * (docs/domain.md, "Settings changes").
 *
 * @param discountRate the cluster's discount rate then
 * @param chargeback   the prices then
 * @param tenants      every tenant then, in the order of the tenant tree: what servers before 2026-11-28 wrote, and
 *                     what a hand-written document may give; when present, {@code changed} and {@code added} are not
 *                     read
 * @param changed      the tenants whose weight, discount-rate override or plan then differed from the next entry's,
 *                     with their values then
 * @param added        the paths of the tenants the next entry has and this one had not
 * @param until        where the next entry took over
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SettingsSegment(Double discountRate, LedgerSettings.Chargeback chargeback,
        List<LedgerSettings.Tenant> tenants, List<LedgerSettings.Tenant> changed, List<String> added, Instant until) {

    /**
     * The entry ending at {@code until} whose tenants were {@code then}, followed by {@code next}: their differences,
     * or the whole list when these cannot say it: {@code then} names a path {@code next} lacks (a tenant tree only
     * grows, but a document written by hand may drop a tenant) or lists its tenants in another order.
     */
    static SettingsSegment of(Double discountRate, LedgerSettings.Chargeback chargeback,
            List<LedgerSettings.Tenant> then, List<LedgerSettings.Tenant> next, Instant until) {
        Map<String, LedgerSettings.Tenant> before = byPath(then);
        List<LedgerSettings.Tenant> changed = new ArrayList<>();
        List<String> added = new ArrayList<>();
        int kept = 0;
        boolean inOrder = before.size() == then.size();
        for (LedgerSettings.Tenant t : next) {
            LedgerSettings.Tenant was = before.get(t.path());
            if (was == null) {
                added.add(t.path());
                continue;
            }
            inOrder = inOrder && kept < then.size() && then.get(kept) == was;
            kept++;
            if (!was.equals(t)) {
                changed.add(was);
            }
        }
        return inOrder && kept == then.size()
                ? new SettingsSegment(discountRate, chargeback, null, changed, added, until)
                : new SettingsSegment(discountRate, chargeback, List.copyOf(then), null, null, until);
    }

    /** This entry's tenants in full, given {@code next}, those of the entry after it: in {@code next}'s order. */
    List<LedgerSettings.Tenant> tenantsBefore(List<LedgerSettings.Tenant> next) {
        if (tenants != null) {
            return tenants;
        }
        Map<String, LedgerSettings.Tenant> then = byPath(changed == null ? List.of() : changed);
        Set<String> later = added == null ? Set.of() : new HashSet<>(added);
        List<LedgerSettings.Tenant> out = new ArrayList<>(next.size());
        for (LedgerSettings.Tenant t : next) {
            if (!later.contains(t.path())) {
                out.add(then.getOrDefault(t.path(), t));
            }
        }
        return out;
    }

    /** This entry, whose tenants were {@code then}, followed by {@code next} instead of what followed it. */
    SettingsSegment followedBy(List<LedgerSettings.Tenant> then, List<LedgerSettings.Tenant> next) {
        return of(discountRate, chargeback, then, next, until);
    }

    /** Whether this entry, whose tenants were {@code then}, says what {@code settings} say of tenants and prices. */
    boolean sameAs(List<LedgerSettings.Tenant> then, LedgerSettings settings) {
        return Objects.equals(discountRate, settings.discountRate())
                && Objects.equals(chargeback, settings.chargeback()) && then.equals(settings.tenantList());
    }

    private static Map<String, LedgerSettings.Tenant> byPath(List<LedgerSettings.Tenant> tenants) {
        Map<String, LedgerSettings.Tenant> out = new HashMap<>();
        for (LedgerSettings.Tenant t : tenants) {
            out.put(t.path(), t);
        }
        return out;
    }
}
