package io.fairledger.accounting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.core.replay.ReplayResult;
import io.fairledger.errors.NotReady;
import io.fairledger.facts.LedgerFact;
import io.fairledger.tenancy.LedgerSettings;

/**
 * A what-if's streamed replay ({@link WhatIfReplay}) states what the replay of every fact at once ({@link Books})
 * states, and stops, with a 503's {@link NotReady}, when its caller has gone or its deadline has passed.
 */
class WhatIfReplayProperties {

    private static final String CLUSTER = "c";

    @Property(tries = 100)
    void theStreamedReplayEqualsTheReplayOfEveryFact(@ForAll long seed,
            @ForAll @IntRange(min = 1, max = 3_000) int containers) {
        List<LedgerFact> facts = facts(seed, containers);
        LedgerSettings settings = PeriodCloserProperties.settings(2.0);
        Instant until = Instant.ofEpochMilli(facts.get(facts.size() - 1).at()).plus(Duration.ofHours(1));
        ReplayResult expected = Books.replay(CLUSTER, settings, facts, until);

        ReplayConfig config = settings.toReplayConfig(CLUSTER, until);
        WhatIfReplay streamed = new WhatIfReplay(StreamedReplay.fromRegistration(config),
                Duration.ofDays(1), () -> false);
        facts.forEach(streamed::accept);
        ReplayResult actual = streamed.finish(until.toEpochMilli());

        assertThat(streamed.factsRead()).isEqualTo(facts.size());
        assertThat(actual.statements()).isEqualTo(expected.statements());
        assertThat(actual.fairness()).isEqualTo(expected.fairness());
        assertThat(actual.openAccounts()).isEqualTo(expected.openAccounts());
    }

    @Example
    void aCallerGoneStopsTheReplayAtTheNextLook() {
        List<LedgerFact> facts = facts(7, 1_000);
        ReplayConfig config = PeriodCloserProperties.settings(1.0).toReplayConfig(CLUSTER,
                Instant.ofEpochMilli(facts.get(facts.size() - 1).at()));
        int[] looks = {0};
        WhatIfReplay replay = new WhatIfReplay(StreamedReplay.fromRegistration(config),
                Duration.ofDays(1), () -> ++looks[0] > 1);
        assertThatThrownBy(() -> facts.forEach(replay::accept)).isInstanceOf(NotReady.class)
                .hasMessageContaining("stopped after " + WhatIfReplay.CHECK_EVERY + " facts: the client has gone");
        assertThat(replay.factsRead()).isEqualTo(WhatIfReplay.CHECK_EVERY);
    }

    @Example
    void aPassedDeadlineStopsTheReplay() {
        List<LedgerFact> facts = facts(8, 10);
        ReplayConfig config = PeriodCloserProperties.settings(1.0).toReplayConfig(CLUSTER,
                Instant.ofEpochMilli(facts.get(facts.size() - 1).at()));
        WhatIfReplay replay = new WhatIfReplay(StreamedReplay.fromRegistration(config),
                Duration.ofDays(-1), () -> false);
        assertThatThrownBy(() -> replay.accept(facts.get(0))).isInstanceOf(NotReady.class)
                .hasMessageContaining("longer than its deadline");
    }

    /** Facts of {@code containers} random containers, in the order the fact cursor reads them. */
    private static List<LedgerFact> facts(long seed, int containers) {
        Random random = new Random(seed);
        List<LedgerFact> facts = new ArrayList<>();
        for (int i = 0; i < containers; i++) {
            facts.addAll(PeriodCloserProperties.container(random, i));
        }
        facts.sort(LedgerFeed.ORDER);
        return facts;
    }
}
