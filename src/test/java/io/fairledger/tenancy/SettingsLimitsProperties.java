package io.fairledger.tenancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Random;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

import io.fairledger.core.replay.Replay;
import io.fairledger.core.replay.ReplayConfig;
import io.fairledger.errors.Invalid;
import io.fairledger.testsupport.SettingsDocuments;

/**
 * Every ledger settings document the parser accepts is either refused by {@link LedgerSettings#validate} with the
 * members named, or replays a day without failing: what the ranges let through the server can run. The documents are
 * parsed as {@code fairledger account --config} parses them.
 */
class SettingsLimitsProperties {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Property(tries = 2000)
    void aDocumentIsRefusedWithItsMembersNamedOrReplays(@ForAll("documents") String document) {
        LedgerSettings settings;
        try {
            settings = JSON.readValue(document, LedgerSettings.class);
        } catch (JsonProcessingException e) {
            Statistics.collect("unparsable");
            return; // the server answers 400 or 422 from the parser; nothing reaches the ledger
        }
        try {
            settings.validate("fuzz");
        } catch (Invalid e) {
            assertThat(e.fields()).as("every refusal names its members").isNotEmpty();
            Statistics.collect("refused");
            return;
        }
        Statistics.collect("accepted");
        ReplayConfig config = settings.toReplayConfig("fuzz", settings.registeredAt());
        Replay replay = new Replay(config);
        long dayLater = settings.registeredAt().plus(Duration.ofDays(1)).toEpochMilli();
        replay.closeUntil(dayLater);
        assertThat(replay.openPeriod().end()).as("the replay reached a day after the registration")
                .isGreaterThan(dayLater);
    }

    @Provide
    Arbitrary<String> documents() {
        return Arbitraries.randoms().map(SettingsDocuments::document);
    }

    @Test
    void theAttackRunsDocumentsAreRefusedNamingTheMemberAndTheRange() {
        assertThat(refused("\"period\":{\"length\":\"PT1S\"}")).containsExactly("period.length");
        assertThat(message("\"period\":{\"length\":\"PT1S\"}")).contains("PT1M").contains("366 days");
        assertThat(refused("\"period\":{\"length\":\"PT2562047788015H\"}")).containsExactly("period.length");
        assertThat(refused("\"memory\":{\"mode\":\"ROUNDS\",\"roundLength\":\"PT0.001S\"}"))
                .containsExactly("memory.roundLength");
        assertThat(refused("\"allowedLateness\":\"PT-1H\"")).containsExactly("allowedLateness");
        assertThat(refused("\"period\":{\"origin\":\"0001-01-01T00:00:00Z\",\"length\":\"P1D\"}"))
                .containsExactly("period.origin");
        assertThat(refused("\"tenants\":[{\"path\":\"root.a\",\"weight\":1e308}]"))
                .containsExactly("tenants[0].weight");
        assertThat(refused("\"tenants\":[{\"path\":\"root.a\",\"weight\":1000000}]"))
                .as("NUMERIC(12,6) holds less than 10^6").containsExactly("tenants[0].weight");
        assertThat(refused("\"tenants\":[{\"path\":\"root." + "a.".repeat(1900) + "a\",\"weight\":1}]"))
                .containsExactly("tenants[0].path");
        assertThat(refused("\"earlier\":[{\"changed\":[{\"path\":\"root.a\",\"weight\":1e308}],"
                + "\"added\":[\"root..b\"],\"discountRate\":2,\"until\":\"2026-03-02T00:00:00Z\"},"
                + "{\"tenants\":[{\"path\":\"root.a\",\"weight\":-1}]},"
                + "{\"chargeback\":{\"model\":\"USAGE\",\"plans\":[]},\"until\":\"2026-03-01T00:00:00Z\"}]"))
                .as("the entries of earlier, as a what-if replays them").containsExactly(
                        "earlier[0].discountRate", "earlier[0].changed[0].weight", "earlier[0].added[0]",
                        "earlier[1].until", "earlier[1].tenants[0].weight", "earlier[2].until",
                        "earlier[2].chargeback.plans");
        assertThat(refused("\"memory\":{\"mode\":\"SOMETIMES\"}")).containsExactly("memory.mode");
        assertThat(refused("\"chargeback\":{\"model\":\"USAGE\",\"plans\":[{\"name\":\"s\\uffff\",\"perVcoreHour\":1,"
                + "\"perGbHour\":0,\"perGpuHour\":0}],\"currency\":\"eur\"}"))
                .containsExactly("chargeback.plans[0].name", "chargeback.currency");
        assertThat(refused("\"chargeback\":{\"model\":\"USAGE\",\"plans\":[{\"name\":\"s\\u200bt\",\"perVcoreHour\":1,"
                + "\"perGbHour\":0,\"perGpuHour\":0}]}")).containsExactly("chargeback.plans[0].name");
        assertThat(refused("\"chargeback\":{\"model\":\"USAGE\",\"plans\":[{\"perVcoreHour\":1,"
                + "\"perGbHour\":0,\"perGpuHour\":0}]}")).contains("chargeback.plans[0].name");
    }

    @Test
    void registrationsFrom1970OrYear99999AreRefused() {
        for (String at : List.of("1970-01-01T00:00:00Z", "+99999-01-01T00:00:00Z", "2200-01-01T00:00:00Z")) {
            String document = valid().replace("2026-11-20T00:00:00Z", at);
            assertThatThrownBy(() -> parse(document).validate("c")).isInstanceOf(Invalid.class)
                    .satisfies(e -> assertThat(((Invalid) e).fields()).extracting(Invalid.Field::field)
                            .containsExactly("registeredAt"));
        }
    }

    @Test
    void theBoundsThemselvesAreAccepted() {
        parse(valid().replace("\"length\":\"PT1H\"", "\"length\":\"PT1M\"").replace("2026-11-20T00:00:00Z",
                "2000-01-01T00:00:00Z")).validate("c");
        parse(valid().replace("\"length\":\"PT1H\"", "\"length\":\"P366D\"")
                .replace("\"weight\":1", "\"weight\":999999.999999")).validate("c");
    }

    private static List<String> refused(String member) {
        String document = BASE.replace("}}", "}," + member + "}");
        LedgerSettings settings = parse(document);
        try {
            settings.validate("c");
        } catch (Invalid e) {
            return e.fields().stream().map(Invalid.Field::field).toList();
        }
        throw new AssertionError("accepted: " + document);
    }

    @Test
    void aClusterRegisteredEmptyIsAcceptedAndASubMillicoreOneIsNot() {
        String empty = BASE.replace("\"vcores\":10,\"memoryMb\":10240", "\"vcores\":0,\"memoryMb\":0");
        parse(empty).validate("c");
        String tiny = BASE.replace("\"vcores\":10", "\"vcores\":0.0005");
        assertThatThrownBy(() -> parse(tiny).validate("c")).isInstanceOf(Invalid.class)
                .hasMessageContaining("capacity.vcores");
    }

    private static String message(String member) {
        try {
            parse(BASE.replace("}}", "}," + member + "}")).validate("c");
        } catch (Invalid e) {
            return e.getMessage();
        }
        throw new AssertionError("accepted: " + member);
    }

    /** Valid settings with a registration and a capacity only, to which one member is added. */
    private static final String BASE = "{\"registeredAt\":\"2026-11-20T00:00:00Z\","
            + "\"capacity\":{\"vcores\":10,\"memoryMb\":10240,\"gpus\":0}}";

    private static String valid() {
        return SettingsDocuments.valid().replace("\n", "");
    }

    private static LedgerSettings parse(String document) {
        try {
            return JSON.readValue(document, LedgerSettings.class);
        } catch (JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
