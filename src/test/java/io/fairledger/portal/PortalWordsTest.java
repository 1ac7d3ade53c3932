package io.fairledger.portal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** How the portal words what finance and tenants read: money, durations, audit changes, related tenants. */
class PortalWordsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void moneyHasItsCurrencysDecimalsAndKeepsAnyFurtherOnes() {
        assertThat(Format.money(new BigDecimal("0.6"), "EUR")).isEqualTo("0.60");
        assertThat(Format.money(new BigDecimal("9.7"), "USD")).isEqualTo("9.70");
        assertThat(Format.money(new BigDecimal("12"), "JPY")).isEqualTo("12");
        assertThat(Format.money(new BigDecimal("0.123"), "BHD")).isEqualTo("0.123");
        assertThat(Format.money(new BigDecimal("0.12345"), "EUR")).as("a currencyScale of 5 is not rounded away")
                .isEqualTo("0.12345");
        assertThat(Format.money(new BigDecimal("1.500000"), "EUR")).isEqualTo("1.50");
        assertThat(Format.money(new BigDecimal("-3"), "XXX")).as("no currency: two decimals").isEqualTo("-3.00");
        assertThat(Format.money(BigDecimal.ZERO, "EUR")).isEqualTo("0.00");
        assertThat(Format.money(null, "EUR")).isEqualTo("-");
    }

    @Test
    void durationsAreWordsLargestUnitFirst() {
        assertThat(Format.duration(Duration.ofDays(1))).isEqualTo("1 day");
        assertThat(Format.duration(Duration.parse("PT2H30M"))).isEqualTo("2 hours 30 minutes");
        assertThat(Format.duration(Duration.parse("P92D"))).isEqualTo("92 days");
        assertThat(Format.duration(Duration.ofMillis(1500))).isEqualTo("1 second 500 milliseconds");
        assertThat(Format.duration(Duration.ZERO)).isEqualTo("0 seconds");
        assertThat(Format.duration(Duration.ofMinutes(-5))).isEqualTo("minus 5 minutes");
        assertThat(Format.duration(null)).isEqualTo("-");
    }

    @Test
    void anAuditChangeIsItsChangedMembersWithDurationsInWords() throws Exception {
        List<String> changed = AuditChanges.differences(
                JSON.readTree("{\"weight\":1,\"discountRateOverride\":null,\"period\":{\"length\":\"PT1H\"},"
                        + "\"plans\":[{\"name\":\"std\",\"perVcoreHour\":0.04}],\"same\":\"x\"}"),
                JSON.readTree("{\"weight\":2,\"discountRateOverride\":0.5,\"period\":{\"length\":\"P1D\"},"
                        + "\"plans\":[{\"name\":\"std\",\"perVcoreHour\":0.05}],\"same\":\"x\",\"currency\":\"EUR\"}"));
        assertThat(changed).containsExactly("weight: 1 → 2", "discountRateOverride: none → 0.5",
                "period.length: 1 hour → 1 day", "plans[0].perVcoreHour: 0.04 → 0.05", "currency: EUR");
        assertThat(AuditChanges.differences(null, JSON.readTree("{\"weight\":3}"))).containsExactly("created",
                "weight: 3");
        assertThat(AuditChanges.differences(JSON.readTree("{\"weight\":3}"), null)).containsExactly("removed");
        assertThat(AuditChanges.differences(JSON.readTree("{\"a\":1}"), JSON.readTree("{}")))
                .containsExactly("a: 1 removed");
        assertThat(AuditChanges.differences(JSON.readTree("{\"a\":1}"), JSON.readTree("{\"a\":1}")))
                .containsExactly("no member changed");
        assertThat(AuditChanges.differences(JSON.readTree("{\"mode\":\"PAR\"}"),
                JSON.readTree("{\"mode\":\"PARTIAL\"}"))).as("a text that only starts like a duration")
                .containsExactly("mode: PAR → PARTIAL");
    }

    @Test
    void aTenantsFamilyIsItsParentBelowTheRootAndItsChildren() {
        List<String> tenants = List.of("root.a", "root.a.x", "root.a.y", "root.a.x.deep", "root.b");
        assertThat(PortalModel.family("root.a", tenants)).containsExactly(
                new PortalModel.Relative("child", "root.a.x"), new PortalModel.Relative("child", "root.a.y"));
        assertThat(PortalModel.family("root.a.x", tenants)).containsExactly(
                new PortalModel.Relative("parent", "root.a"), new PortalModel.Relative("child", "root.a.x.deep"));
        assertThat(PortalModel.family("root.b", tenants)).isEmpty();
    }
}
