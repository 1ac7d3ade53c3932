package io.fairledger.tenancy;

import java.util.List;
import java.util.Objects;

/**
 * Where a cluster's ledger settings are stored: the document without its tenants (the tenant tree keeps those) and
 * without its {@code earlier} in the {@code cluster} row's {@code ledger_settings}, and each {@code earlier} entry in a
 * row of {@code ledger_settings_entry} by its place (migration V68). A change writes only the entries it changes
 * (usually the last one and one more), not every entry the cluster's history holds: with 200 entries the whole
 * document was 84 KB, written and read back at every change.
 */
final class SettingsRows {

    private SettingsRows() {
    }

    /** The cluster's settings as one document, {@code earlier} put back from its rows; null when it has none. */
    static String document(String clusterId) {
        Object text = ClusterEntity.getEntityManager().createNativeQuery("SELECT CASE WHEN e.earlier IS NULL "
                + "THEN c.ledger_settings ELSE jsonb_set(c.ledger_settings, '{earlier}', e.earlier) END::text "
                + "FROM cluster c LEFT JOIN LATERAL (SELECT jsonb_agg(s.entry ORDER BY s.position) AS earlier "
                + "FROM ledger_settings_entry s WHERE s.cluster_id = c.id) e ON true WHERE c.id = ?1")
                .setParameter(1, clusterId).getResultList().stream().filter(Objects::nonNull).findFirst().orElse(null);
        return text == null ? null : text.toString();
    }

    /**
     * How many entries {@code stored} (those the cluster's rows hold now) and {@code next} start with alike: the rows
     * from there on are the ones to write.
     */
    static int sharedEntries(List<SettingsSegment> stored, List<SettingsSegment> next) {
        int shared = 0;
        while (shared < stored.size() && shared < next.size()
                && Objects.equals(stored.get(shared), next.get(shared))) {
            shared++;
        }
        return shared;
    }

    /**
     * Stores {@code document} (the settings without tenants and {@code earlier}, as JSON), the entries {@code entries}
     * (a JSON array) at places {@code from} on, and drops the rows after them, in one statement; moves the cluster's
     * configuration version when any of it changed. Returns the version the change gave, null when nothing changed.
     */
    static String write(String clusterId, String document, int from, String entries, int count) {
        // one round trip; the document is cast to jsonb once (cast twice, it was parsed twice); the entries written and
        // the rows dropped are distinct rows, as statements of one WITH may not touch a row twice; the row (and the
        // version) is left as it is when nothing changed (the document compared as JSON: jsonb keeps no key order or
        // spacing), so sending the same settings again leaves the ETag
        Object version = ClusterEntity.getEntityManager().createNativeQuery("WITH document AS ("
                + "SELECT CAST(?1 AS jsonb) AS settings), "
                + "dropped AS (DELETE FROM ledger_settings_entry WHERE cluster_id = ?2 AND position >= ?5 "
                + "RETURNING 1), "
                + "written AS (INSERT INTO ledger_settings_entry (cluster_id, position, entry) "
                + "SELECT ?2, ?3 + e.n - 1, e.entry FROM jsonb_array_elements(CAST(?4 AS jsonb)) "
                + "WITH ORDINALITY AS e(entry, n) ON CONFLICT (cluster_id, position) DO UPDATE SET entry = "
                + "EXCLUDED.entry WHERE ledger_settings_entry.entry IS DISTINCT FROM EXCLUDED.entry RETURNING 1) "
                + "UPDATE cluster SET configuration_version = nextval('cluster_configuration_version'), "
                + "ledger_settings = document.settings FROM document WHERE cluster.id = ?2 "
                + "AND (cluster.ledger_settings IS DISTINCT FROM document.settings "
                + "OR EXISTS (SELECT 1 FROM dropped) OR EXISTS (SELECT 1 FROM written)) "
                + "RETURNING cluster.configuration_version || ':' || cluster.xmin::text")
                .setParameter(1, document).setParameter(2, clusterId).setParameter(3, from).setParameter(4, entries)
                .setParameter(5, count).getResultStream().findFirst().orElse(null);
        return version == null ? null : version.toString();
    }
}
