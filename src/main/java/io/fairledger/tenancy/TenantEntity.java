package io.fairledger.tenancy;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.NamedQueries;
import jakarta.persistence.NamedQuery;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/** A node of a cluster's tenant tree: a YARN queue or a Mesos role, with its weight and discount-rate override. */
@Entity
@Table(name = "tenant")
@NamedQueries({
        @NamedQuery(name = TenantEntity.BY_CLUSTER, query = "from TenantEntity where clusterId = ?1 order by path"),
        @NamedQuery(name = TenantEntity.BY_PATH, query = "from TenantEntity where clusterId = ?1 and path = ?2")})
public class TenantEntity extends PanacheEntityBase {

    static final String BY_CLUSTER = "Tenant.byCluster";
    static final String BY_PATH = "Tenant.byPath";

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(name = "cluster_id", nullable = false)
    public String clusterId;

    @Column(nullable = false)
    public String path;

    @Column(name = "parent_path")
    public String parentPath;

    @Column(nullable = false)
    public BigDecimal weight;

    @Column(name = "discount_rate_override")
    public BigDecimal discountRateOverride;

    @Column(name = "created_at", nullable = false, insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at", nullable = false)
    public OffsetDateTime updatedAt;

    public static List<TenantEntity> ofCluster(String clusterId) {
        return find("#" + BY_CLUSTER, clusterId).list();
    }

    public static TenantEntity byPath(String clusterId, String path) {
        return find("#" + BY_PATH, clusterId, path).firstResult();
    }
}
