package io.fairledger.audit;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import io.quarkus.panache.common.Sort;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** One administrative change, as {@link AuditTrail} recorded it. Never updated nor deleted. */
@Entity
@Table(name = "audit_entry")
public class AuditEntry extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, insertable = false, updatable = false)
    public OffsetDateTime at;

    @Column(nullable = false, updatable = false)
    public String actor;

    @Column(name = "cluster_id", updatable = false)
    public String clusterId;

    @Column(nullable = false, updatable = false)
    public String subject;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "before_value", updatable = false)
    public String before;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "after_value", updatable = false)
    public String after;

    @Column(name = "effective_from", nullable = false, updatable = false)
    public OffsetDateTime effectiveFrom;

    /**
     * Entries newest first, of one cluster or of all when {@code clusterId} is null, recorded in {@code [from, to)}
     * (null: unbounded) and older than entry {@code beforeId} (null: from the newest), at most {@code limit}.
     */
    static List<AuditEntry> newest(String clusterId, Instant from, Instant to, Long beforeId, int limit) {
        List<String> where = new ArrayList<>();
        Map<String, Object> values = new HashMap<>();
        if (clusterId != null) {
            where.add("clusterId = :cluster");
            values.put("cluster", clusterId);
        }
        if (from != null) {
            where.add("at >= :from");
            values.put("from", OffsetDateTime.ofInstant(from, ZoneOffset.UTC));
        }
        if (to != null) {
            where.add("at < :to");
            values.put("to", OffsetDateTime.ofInstant(to, ZoneOffset.UTC));
        }
        if (beforeId != null) {
            where.add("id < :before");
            values.put("before", beforeId);
        }
        Sort newestFirst = Sort.by("id").descending();
        return (where.isEmpty() ? findAll(newestFirst) : find(String.join(" and ", where), newestFirst, values))
                .page(0, limit).list();
    }
}
