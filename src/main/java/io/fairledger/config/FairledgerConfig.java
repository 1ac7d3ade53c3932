package io.fairledger.config;

import java.time.Duration;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Every {@code fairledger.*} setting, typed, with its default: the one place defaults are written (docs/configuration.md
 * lists them). Durations use Quarkus' short form, a number and a unit: {@code 500ms}, {@code 10s}, {@code 5m},
 * {@code 1h}. Each key can also be set as an environment variable ({@code fairledger.ingest.known-starts} ->
 * {@code FAIRLEDGER_INGEST_KNOWN_STARTS}) or a system property.
 */
@ConfigMapping(prefix = "fairledger")
public interface FairledgerConfig {

    Ingest ingest();

    Live live();

    Grants grants();

    Metrics metrics();

    Admission admission();

    Security security();

    /** The event consumer: how much it remembers and how it fetches from Kafka. */
    interface Ingest {

        /**
         * {@code fairledger.ingest.known-starts}: task starts remembered as stored, and running Mesos tasks' starts kept
         * for updates without resources (each at most this many, about 150 bytes each); 250000.
         */
        @WithDefault("250000")
        int knownStarts();

        /** {@code fairledger.ingest.max-poll-records}: events per poll, stored as one batch; 5000. */
        @WithDefault("5000")
        int maxPollRecords();

        /** {@code fairledger.ingest.fetch-min-bytes}: bytes the broker gathers before answering a fetch; 65536. */
        @WithDefault("65536")
        int fetchMinBytes();

        /** {@code fairledger.ingest.fetch-max-wait}: how long the broker may wait to gather them; 100ms. */
        @WithDefault("100ms")
        Duration fetchMaxWait();

        /** {@code fairledger.ingest.max-partition-fetch-bytes}: bytes per partition per fetch; 8388608 (8 MiB). */
        @WithDefault("8388608")
        int maxPartitionFetchBytes();
    }

    /** The live ledgers the read API and metrics answer from. */
    interface Live {

        /** {@code fairledger.live.poll-interval}: how often stored facts are applied to the live ledgers; 1s. */
        @WithDefault("1s")
        Duration pollInterval();

        /** Checkpoints of the live ledgers, so a restart or a late fact replays only the facts after one. */
        Checkpoint checkpoint();

        /** When the live ledgers store checkpoints (besides at every period close) and how many they keep. */
        interface Checkpoint {

            /** {@code fairledger.live.checkpoint.every-facts}: a checkpoint at least every this many facts; 100000. */
            @WithDefault("100000")
            long everyFacts();

            /** {@code fairledger.live.checkpoint.every}: and at least this often while facts come; 10m. */
            @WithDefault("10m")
            Duration every();

            /** {@code fairledger.live.checkpoint.keep}: checkpoints kept per cluster, the newest; 6. */
            @WithDefault("6")
            int keep();
        }
    }

    /** The grants endpoint. */
    interface Grants {

        /** {@code fairledger.grants.interval}: how long a published set of grants is valid; 10s. */
        @WithDefault("10s")
        Duration interval();
    }

    /** Prometheus metrics. */
    interface Metrics {

        /** {@code fairledger.metrics.max-tenants-per-cluster}: tenants per cluster with their own series; 500. */
        @WithDefault("500")
        int maxTenantsPerCluster();
    }

    /** Deadline admission. */
    interface Admission {

        /** {@code fairledger.admission.poll-interval}: how often the admission log is read; 500ms. */
        @WithDefault("500ms")
        Duration pollInterval();

        /** {@code fairledger.admission.tick-interval}: timer pass of a cluster with queued or running jobs; 10s. */
        @WithDefault("10s")
        Duration tickInterval();
    }

    /** Who is trusted. */
    interface Security {

        /**
         * {@code fairledger.security.trust-loopback-as-admin}: callers from this machine act as admin without a token;
         * false (standalone mode without an OIDC server sets it true).
         */
        @WithDefault("false")
        boolean trustLoopbackAsAdmin();
    }
}
