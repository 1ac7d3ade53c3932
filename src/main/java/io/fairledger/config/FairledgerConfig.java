package io.fairledger.config;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Every {@code fairledger.*} setting, typed, with its default: the {@code @WithDefault}s here are the one place defaults
 * are written (docs/configuration.md lists every key with its default, and {@code ConfigurationDocTest} fails when the
 * two differ; the Javadoc below does not repeat them). Durations use Quarkus' short form, a number and a unit:
 * {@code 500ms}, {@code 10s}, {@code 5m}, {@code 1h}. Each key can also be set as an environment variable
 * ({@code fairledger.ingest.known-starts} -> {@code FAIRLEDGER_INGEST_KNOWN_STARTS}) or a system property.
 */
@ConfigMapping(prefix = "fairledger")
public interface FairledgerConfig {

    Ingest ingest();

    Live live();

    WhatIf whatIf();

    Statements statements();

    Closing closing();

    Retention retention();

    Grants grants();

    Metrics metrics();

    Admission admission();

    Security security();

    Memory memory();

    LedgerKey ledgerKey();

    LedgerChain ledgerChain();

    /** The event consumer: how much it remembers and how it fetches from Kafka. */
    interface Ingest {

        /**
         * {@code fairledger.ingest.known-starts}: task starts remembered as stored, and running Mesos tasks' starts kept
         * for updates without resources (each at most this many, about 150 bytes each).
         */
        @WithDefault("250000")
        int knownStarts();

        /** {@code fairledger.ingest.max-poll-records}: events per poll, stored as one batch. */
        @WithDefault("5000")
        int maxPollRecords();

        /** {@code fairledger.ingest.fetch-min-bytes}: bytes the broker gathers before answering a fetch. */
        @WithDefault("65536")
        int fetchMinBytes();

        /** {@code fairledger.ingest.fetch-max-wait}: how long the broker may wait to gather them. */
        @WithDefault("100ms")
        Duration fetchMaxWait();

        /** {@code fairledger.ingest.max-partition-fetch-bytes}: bytes per partition per fetch. */
        @WithDefault("8388608")
        int maxPartitionFetchBytes();

        /**
         * {@code fairledger.ingest.stall-after}: how long records may wait in Kafka while no batch is stored before
         * ingestion counts as stalled (health DOWN); 2m.
         */
        @WithDefault("2m")
        Duration stallAfter();

        /** The schema registry of registry-framed Avro records. */
        Registry registry();

        /** {@code fairledger.ingest.registry.*}: where writer schemas of registry-framed records are looked up. */
        interface Registry {

            /**
             * {@code fairledger.ingest.registry.url}: the registry API's base URL, Apicurio's
             * {@code .../apis/registry/v2} or {@code v3}, or a Confluent-compatible one (Confluent's root, Apicurio's
             * {@code .../apis/ccompat/v7}); unset, registry-framed records are dead letters.
             */
            Optional<URI> url();

            /**
             * {@code fairledger.ingest.registry.payload-id}: what follows the magic byte 0 in a registry-framed value,
             * {@code content-id} (4 bytes: Confluent's wire format, Apicurio 3's default) or {@code global-id} (8
             * bytes: Apicurio 2 with headers off).
             */
            @WithDefault("content-id")
            PayloadId payloadId();

            /** {@code fairledger.ingest.registry.username}: for HTTP basic authentication. */
            Optional<String> username();

            /** {@code fairledger.ingest.registry.password}: for HTTP basic authentication. */
            Optional<String> password();

            /** {@code fairledger.ingest.registry.token}: a bearer token, used instead of a username. */
            Optional<String> token();

            /** {@code fairledger.ingest.registry.cache-size}: schema ids remembered. */
            @WithDefault("1000")
            int cacheSize();

            /** {@code fairledger.ingest.registry.timeout}: how long one request to the registry may take. */
            @WithDefault("5s")
            Duration timeout();

            /**
             * {@code fairledger.ingest.registry.attempts}: tries of each request to the registry before it counts as
             * away and the batch is read again later.
             */
            @WithDefault("3")
            int attempts();

            /** The two layouts of the id after the magic byte. */
            enum PayloadId {
                CONTENT_ID, GLOBAL_ID
            }
        }
    }

    /** The live ledgers the read API and metrics answer from. */
    interface Live {

        /**
         * {@code fairledger.live.poll-interval}: how often stored facts are applied to the live ledgers while they
         * come, and the live ledgers are looked over when nothing is stored.
         */
        @WithDefault("1s")
        Duration pollInterval();

        /**
         * {@code fairledger.live.check-interval}: how often the live ledgers look whether anything was stored (one
         * query); facts stored after a quiet {@code poll-interval} are applied at the next look, not a whole
         * {@code poll-interval} later.
         */
        @WithDefault("100ms")
        Duration checkInterval();

        /** Checkpoints of the live ledgers, so a restart or a late fact replays only the facts after one. */
        Checkpoint checkpoint();

        /** When the live ledgers store checkpoints (besides at every period's end) and how many they keep. */
        interface Checkpoint {

            /** {@code fairledger.live.checkpoint.every-facts}: a checkpoint at least every this many facts. */
            @WithDefault("100000")
            long everyFacts();

            /** {@code fairledger.live.checkpoint.every}: and at least this often while facts come. */
            @WithDefault("10m")
            Duration every();

            /** {@code fairledger.live.checkpoint.keep}: checkpoints kept per cluster, the newest. */
            @WithDefault("6")
            int keep();

            /**
             * {@code fairledger.live.checkpoint.periods}: besides the {@code keep} newest, the newest checkpoint of
             * each of this many latest periods is kept (the state at an ended period's end), so a what-if over a
             * recent period and the period closer start near it. 0 keeps none.
             */
            @WithDefault("62")
            int periods();
        }
    }

    /** What-if requests (docs/api.md): how much work one may take. */
    interface WhatIf {

        /** {@code fairledger.what-if.max-window}: the longest {@code (from, until]} a what-if accepts. */
        @WithDefault("92d")
        Duration maxWindow();

        /**
         * {@code fairledger.what-if.deadline}: a what-if still replaying after this long stops and answers 503 with
         * {@code Retry-After}.
         */
        @WithDefault("60s")
        Duration deadline();
    }

    /** Statement reads (docs/api.md, "Statements"). */
    interface Statements {

        /**
         * {@code fairledger.statements.closed-cache}: bytes of closed statements' JSON text kept in memory for
         * {@code GET .../statements} (a closed statement never changes, so the text is read from PostgreSQL once).
         * Periods beyond it are read from PostgreSQL on every request; 0 keeps none.
         */
        @WithDefault("33554432")
        long closedCache();
    }

    /** When periods close and who closes them (docs/accounting.md, "Per-source watermarks"). */
    interface Closing {

        /**
         * {@code fairledger.closing.source-idle-timeout}: how long a source (a partition of the events topic) may
         * deliver nothing, in arrival time, while others deliver, before it stops holding the cluster's periods open;
         * 1s to 7d.
         */
        @WithDefault("15m")
        Duration sourceIdleTimeout();

        /**
         * {@code fairledger.closing.writer-check}: how often a replica that is not a cluster's writer tries to become
         * it (the writer's lock is PostgreSQL's: it goes with the writer's session).
         */
        @WithDefault("2s")
        Duration writerCheck();
    }

    /** The month partitions of the stored facts and how long facts are kept (docs/operations.md, retention). */
    interface Retention {

        /**
         * {@code fairledger.retention.facts}: a month of facts older than this (its end before now minus it) is dropped
         * once nothing needs it (every period overlapping it closed and a checkpoint after it, in every cluster with
         * facts in it); unset, facts are kept forever.
         */
        Optional<Duration> facts();

        /** {@code fairledger.retention.interval}: how often month partitions are created and retention runs. */
        @WithDefault("1h")
        Duration interval();

        /** {@code fairledger.retention.months-ahead}: month partitions created ahead of the current month. */
        @WithDefault("2")
        int monthsAhead();
    }

    /** The grants endpoint. */
    interface Grants {

        /** {@code fairledger.grants.interval}: how long a published set of grants is valid. */
        @WithDefault("10s")
        Duration interval();
    }

    /** Prometheus metrics. */
    interface Metrics {

        /** {@code fairledger.metrics.max-tenants-per-cluster}: tenants per cluster with their own series. */
        @WithDefault("500")
        int maxTenantsPerCluster();

        /**
         * {@code fairledger.metrics.scrape-token}: the bearer token {@code /q/metrics} asks of every caller; without
         * one it answers loopback callers only ({@code security.MetricsAccess}).
         */
        Optional<String> scrapeToken();
    }

    /** Deadline admission. */
    interface Admission {

        /** {@code fairledger.admission.poll-interval}: how often the admission log is read. */
        @WithDefault("500ms")
        Duration pollInterval();

        /** {@code fairledger.admission.tick-interval}: timer pass of a cluster with queued or running jobs. */
        @WithDefault("10s")
        Duration tickInterval();
    }

    /** Who is trusted. */
    interface Security {

        /**
         * {@code fairledger.security.trust-loopback-as-admin}: callers from this machine act as admin without a token;
         * standalone mode without an OIDC server sets it true.
         */
        @WithDefault("false")
        boolean trustLoopbackAsAdmin();
    }

    /** The server's own use of memory (docs/configuration.md, "Memory"). */
    interface Memory {

        /**
         * {@code fairledger.memory.trim-after}: once nothing has been stored for this long after a burst of facts or
         * settings, and the live ledgers have applied it, one full collection gives the heap the burst grew back to
         * the system (at most once a minute). 0s never does.
         */
        @WithDefault("10s")
        Duration trimAfter();
    }

    /** The key that signs closed statements (docs/billing.md, "Verifying closed statements"). */
    interface LedgerKey {

        /**
         * {@code fairledger.ledger-key.file}: the Ed25519 private key, PKCS#8 PEM; standalone mode makes one in its data
         * directory. Without it and without {@code ephemeral} the server does not start.
         */
        Optional<Path> file();

        /** {@code fairledger.ledger-key.key-id}: the key's {@code kid}; unset, its RFC 7638 JWK thumbprint. */
        Optional<String> keyId();

        /**
         * {@code fairledger.ledger-key.previous-public-keys}: a JWK set file of the keys used before a rotation, still
         * published and checked.
         */
        Optional<Path> previousPublicKeys();

        /** {@code fairledger.ledger-key.ephemeral}: without a file, sign with a key made at start (tests, trials). */
        @WithDefault("false")
        boolean ephemeral();
    }

    /** The server's check of its own chains of closed statements. */
    interface LedgerChain {

        /** {@code fairledger.ledger-chain.check-interval}: how often every cluster's chain is checked. */
        @WithDefault("1h")
        Duration checkInterval();
    }
}
