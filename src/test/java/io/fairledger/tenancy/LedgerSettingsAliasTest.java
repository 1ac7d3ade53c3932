package io.fairledger.tenancy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import org.junit.jupiter.api.Test;

/**
 * A tenant's discount-rate override has one name, {@code discountRateOverride}, as in the tenant API; the earlier
 * {@code discountOverride} is still read (a deprecated alias), so stored documents and older clients keep working.
 */
class LedgerSettingsAliasTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    void theNameAndItsDeprecatedAliasAreReadAlike() throws JsonProcessingException {
        for (String name : new String[]{"discountRateOverride", "discountOverride"}) {
            LedgerSettings.Tenant tenant = JSON.readValue(
                    "{\"path\":\"root.a\",\"weight\":2,\"" + name + "\":0.8}", LedgerSettings.Tenant.class);
            assertThat(tenant.discountRateOverride()).as(name).isEqualTo(0.8);
        }
    }

    @Test
    void onlyTheNameIsWritten() throws JsonProcessingException {
        String written = JSON.writeValueAsString(new LedgerSettings.Tenant("root.a", 2, 0.8, ""));
        assertThat(written).contains("\"discountRateOverride\":0.8").doesNotContain("\"discountOverride\"");
    }
}
