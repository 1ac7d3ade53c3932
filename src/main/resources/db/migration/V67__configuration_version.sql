-- A number that moves with every change of a cluster's configuration (its ledger settings or its tenant tree), so the
-- live ledgers and the admin API's ETag learn whether it changed from one small read of the cluster's row
-- (io.fairledger.tenancy.TenancyService#configurationVersion, with the row's xmin). It was an md5 of the whole
-- settings document and a scan of the tenant table, read several times per change: tens of milliseconds each with
-- 10,000 tenants. The numbers come from a sequence, so a change rolled back leaves a number no committed configuration
-- ever has: the settings composed under a version may be kept by it (io.fairledger.tenancy.TenancyService#ledgerSettings).
CREATE SEQUENCE cluster_configuration_version;
ALTER TABLE cluster ADD COLUMN configuration_version BIGINT NOT NULL DEFAULT 0;
