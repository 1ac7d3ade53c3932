package io.fairledger.audit;

import java.time.OffsetDateTime;
import java.util.List;

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

    /** Entries newest first, of one cluster or of all when {@code clusterId} is null, at most {@code limit}. */
    static List<AuditEntry> newest(String clusterId, int limit) {
        Sort newestFirst = Sort.by("id").descending();
        return (clusterId == null ? findAll(newestFirst) : find("clusterId", newestFirst, clusterId)).page(0, limit)
                .list();
    }
}
