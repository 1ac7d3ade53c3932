package io.fairledger.core.ledger;

import java.util.List;

import io.fairledger.core.ledger.LedgerEvent.DemandChanged;
import io.fairledger.core.ledger.LedgerEvent.TaskFinished;
import io.fairledger.core.ledger.LedgerEvent.TaskStarted;
import io.fairledger.core.model.ClusterConfig;
import io.fairledger.core.model.MemoryMode;
import io.fairledger.core.model.ResourceVector;
import io.fairledger.core.model.TenantConfig;
import io.fairledger.core.model.TenantPath;

/** Small builders for ledger tests: cluster "c" registered at 0 with 10 vcores and 10240 MB. */
final class LedgerFixtures {

    static final String CLUSTER = "c";
    static final ResourceVector TEN_VCORES = ResourceVector.of(10, 10240, 0);

    private LedgerFixtures() {
    }

    static ClusterConfig full(TenantConfig... tenants) {
        return ClusterConfig.defaults(CLUSTER, 0, TEN_VCORES, List.of(tenants)).withMemory(new MemoryMode.Full());
    }

    static TaskStarted start(String task, String tenant, long vcores, long at) {
        return new TaskStarted(CLUSTER, task, TenantPath.parse(tenant), "", ResourceVector.of(vcores, 0, 0), at);
    }

    static TaskFinished finish(String task, long at) {
        return new TaskFinished(CLUSTER, task, at);
    }

    static DemandChanged demand(String tenant, long vcores, long at) {
        return new DemandChanged(CLUSTER, TenantPath.parse(tenant), ResourceVector.of(vcores, 0, 0), at);
    }

    static TenantPath p(String path) {
        return TenantPath.parse(path);
    }
}
