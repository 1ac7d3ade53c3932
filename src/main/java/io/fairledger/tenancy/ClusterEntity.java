package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.OffsetDateTime;

import jakarta.persistence.Basic;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.FetchType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

/** A registered cluster: one YARN ResourceManager or Mesos master. Active-record style, as every tenancy entity. */
@Entity
@Table(name = "cluster")
public class ClusterEntity extends PanacheEntityBase {

    @Id
    public String id;

    @Column(nullable = false)
    public String name;

    @Enumerated(EnumType.STRING)
    @Column(name = "resource_manager", nullable = false)
    public ResourceManagerKind resourceManager;

    /** The cluster-wide discount rate eta (LTRF eq. 7) for resources used beyond one's share. */
    @Column(name = "discount_rate", nullable = false)
    public BigDecimal discountRate;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    /**
     * How the cluster's books are kept: {@link io.fairledger.tenancy.LedgerSettings} as JSON, tenants apart; written in
     * SQL by {@link TenancyService#storeLedgerSettings}, with the configuration version. Read when first used, not with
     * the row: with many tenants it holds megabytes, and most reads of a cluster (a lock, its kind) need none of it.
     */
    @Basic(fetch = FetchType.LAZY)
    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "ledger_settings", updatable = false)
    public String ledgerSettings;
}
