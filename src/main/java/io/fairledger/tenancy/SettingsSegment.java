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
        List<LedgerSettings.Tenant> aligned = changedInPlace(then, next);
        if (aligned != null) {
            return new SettingsSegment(discountRate, chargeback, null, aligned, new ArrayList<>(), until);
        }
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

    /**
     * The tenants of {@code then} that differ from {@code next}'s at the same place, when both list the same paths in
     * the same order (a change of weights, rates or plans, no tenant added: {@link #of} without a map of every path);
     * null when they do not.
     */
    private static List<LedgerSettings.Tenant> changedInPlace(List<LedgerSettings.Tenant> then,
            List<LedgerSettings.Tenant> next) {
        if (then.size() != next.size()) {
            return null;
        }
        List<LedgerSettings.Tenant> changed = new ArrayList<>();
        for (int i = 0; i < then.size(); i++) {
            LedgerSettings.Tenant was = then.get(i);
            LedgerSettings.Tenant t = next.get(i);
            if (was == t) {
                continue;
            }
            if (!was.path().equals(t.path())) {
                return null;
            }
            if (!was.equals(t)) {
                changed.add(was);
            }
        }
        return changed;
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

    /**
     * Adds to {@code out} every member of the entries of {@code earlier} out of the range of the settings' member of the
     * same name ({@code earlier[0].changed[1].weight}, {@code earlier[0].added[0]}), an entry's {@code until} missing
     * or not after the one before: a what-if's settings and the offline command replay the entries as given (the
     * server's PUT replaces them).
     */
    static void problems(SettingsLimits.Problems out, List<SettingsSegment> earlier) {
        Instant before = null;
        for (int i = 0; earlier != null && i < earlier.size(); i++) {
            SettingsSegment e = earlier.get(i);
            if (e == null) {
                out.add("earlier[" + i + "]", "is required");
                continue;
            }
            SettingsLimits.Problems entry = new SettingsLimits.Problems(out.prefix + "earlier[" + i + "].");
            entry.instant("until", e.until(), true);
            if (before != null && e.until() != null && !e.until().isAfter(before)) {
                entry.add("until", "must be after earlier[" + (i - 1) + "].until (" + before + "), got " + e.until());
            }
            before = e.until() == null ? before : e.until();
            entry.rate("discountRate", e.discountRate());
            SettingsLimits.chargeback(entry, e.chargeback());
            SettingsLimits.tenants(entry, "tenants", e.tenants());
            SettingsLimits.tenants(entry, "changed", e.changed());
            List<String> added = e.added() == null ? List.of() : e.added();
            if (added.size() > SettingsLimits.MAX_TENANTS) {
                entry.add("added", "must list at most " + SettingsLimits.MAX_TENANTS + " paths, got " + added.size());
            }
            for (int j = 0; j < added.size() && j < SettingsLimits.MAX_TENANTS; j++) {
                String path = SettingsLimits.pathProblem(added.get(j));
                if (path != null) {
                    entry.add("added[" + j + "]", path);
                }
            }
            out.fields.addAll(entry.fields);
        }
    }

    private static Map<String, LedgerSettings.Tenant> byPath(List<LedgerSettings.Tenant> tenants) {
        Map<String, LedgerSettings.Tenant> out = new HashMap<>();
        for (LedgerSettings.Tenant t : tenants) {
            out.put(t.path(), t);
        }
        return out;
    }
}
