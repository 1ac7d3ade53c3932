package io.fairledger.billing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Currency;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The FOCUS 1.3 requirements of every column the export writes, checked on its CSV: presence, type and format
 * (decimals, {@code YYYY-MM-DDTHH:mm:ssZ} instants, JSON tags, ISO 4217 currency), allowed values, and the
 * nullability rules between columns (ChargeClass null unless "Correction"; the SKU price columns present for a usage
 * charge that is not a correction, and null with its SkuPriceId; a unit exactly when its quantity; costs equal to unit
 * price x quantity). An empty field is a null.
 */
final class FocusRequirements {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String DECIMAL = "-?\\d+(\\.\\d+)?";
    private static final String DATE_TIME = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z";
    private static final List<String> NEVER_NULL = List.of("BilledCost", "EffectiveCost", "ListCost",
            "ContractedCost", "BillingAccountId", "BillingCurrency", "BillingPeriodStart", "BillingPeriodEnd",
            "ChargeCategory", "ChargePeriodStart", "ChargePeriodEnd", "ChargeFrequency", "HostProviderName",
            "InvoiceIssuerName", "ServiceProviderName", "ProviderName", "PublisherName", "ServiceCategory",
            "ServiceName", "ServiceSubcategory");
    private static final List<String> DECIMALS = List.of("BilledCost", "EffectiveCost", "ListCost", "ContractedCost",
            "ListUnitPrice", "ContractedUnitPrice", "PricingQuantity", "ConsumedQuantity");
    private static final List<String> SKU_PRICE_COLUMNS = List.of("SkuId", "ListUnitPrice", "ContractedUnitPrice",
            "PricingQuantity", "PricingUnit", "PricingCategory", "ConsumedQuantity", "ConsumedUnit");
    private static final Set<String> SERVICE_CATEGORIES = Set.of("AI and Machine Learning", "Analytics",
            "Business Applications", "Compute", "Databases", "Developer Tools", "Multicloud", "Identity",
            "Integration", "Internet of Things", "Management and Governance", "Media", "Migration", "Mobile",
            "Networking", "Security", "Storage", "Web", "Other");

    private FocusRequirements() {
    }

    /** The CSV's rows by column, a null for an empty field; the header is the export's columns. */
    static List<Map<String, String>> rows(String csv) {
        try (CSVParser parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get()
                .parse(new StringReader(csv))) {
            assertThat(parser.getHeaderNames()).as("the columns").isEqualTo(FocusCsv.COLUMNS);
            List<Map<String, String>> out = new ArrayList<>();
            for (CSVRecord r : parser) {
                Map<String, String> row = new HashMap<>();
                for (String column : FocusCsv.COLUMNS) {
                    String value = r.get(column);
                    row.put(column, value.isEmpty() ? null : value);
                }
                out.add(row);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts every requirement on every row. */
    static void check(List<Map<String, String>> rows) {
        for (Map<String, String> row : rows) {
            check(row);
        }
    }

    private static void check(Map<String, String> row) {
        String at = " of " + row;
        for (String c : NEVER_NULL) {
            assertThat(row.get(c)).as(c + " is never null" + at).isNotNull();
        }
        for (String c : DECIMALS) {
            if (row.get(c) != null) {
                assertThat(row.get(c)).as(c + " is a plain decimal" + at).matches(DECIMAL);
            }
        }
        for (String c : List.of("BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd")) {
            assertThat(row.get(c)).as(c + " is an ISO 8601 UTC instant" + at).matches(DATE_TIME);
        }
        assertThat(instant(row, "BillingPeriodStart")).isBefore(instant(row, "BillingPeriodEnd"));
        assertThat(instant(row, "ChargePeriodStart")).isBefore(instant(row, "ChargePeriodEnd"));
        assertThat(Currency.getInstance(row.get("BillingCurrency")).getCurrencyCode()).as("ISO 4217" + at)
                .isEqualTo(row.get("BillingCurrency"));
        assertThat(row.get("ChargeCategory")).isIn("Usage", "Purchase", "Tax", "Credit", "Adjustment");
        assertThat(row.get("ChargeFrequency")).isIn("One-Time", "Recurring", "Usage-Based");
        assertThat(row.get("ServiceCategory")).isIn(SERVICE_CATEGORIES);
        assertThat(row.get("ServiceSubcategory")).as("a subcategory of its category" + at)
                .endsWith("(" + row.get("ServiceCategory") + ")");
        assertThat(decimal(row, "EffectiveCost")).as("no commitments: EffectiveCost is BilledCost" + at)
                .isEqualByComparingTo(decimal(row, "BilledCost"));
        pairs(row, at);
        boolean correction = row.get("ChargeClass") != null;
        if (correction) {
            assertThat(row.get("ChargeClass")).as("the one allowed value" + at).isEqualTo("Correction");
            assertThat(instant(row, "ChargePeriodEnd")).as("a correction of an earlier period" + at)
                    .isBeforeOrEqualTo(instant(row, "BillingPeriodStart"));
        }
        boolean usage = row.get("ChargeCategory").equals("Usage") || row.get("ChargeCategory").equals("Purchase");
        if (usage && !correction) {
            assertThat(row.get("SkuPriceId")).as("SkuPriceId of a usage charge" + at).isNotNull();
            for (String c : SKU_PRICE_COLUMNS) {
                assertThat(row.get(c)).as(c + " of a usage charge" + at).isNotNull();
            }
        }
        if (row.get("SkuPriceId") == null) {
            for (String c : List.of("ListUnitPrice", "ContractedUnitPrice", "PricingQuantity", "PricingCategory",
                    "ConsumedQuantity")) {
                assertThat(row.get(c)).as(c + " is null without a SkuPriceId" + at).isNull();
            }
            assertThat(decimal(row, "ListCost")).as("ListCost of an unrelated charge is BilledCost" + at)
                    .isEqualByComparingTo(decimal(row, "BilledCost"));
        } else {
            assertThat(row.get("PricingCategory")).isIn("Standard", "Dynamic", "Committed", "Other");
            assertThat(decimal(row, "ListUnitPrice").signum()).as("non-negative" + at).isNotNegative();
            assertThat(decimal(row, "ContractedUnitPrice").signum()).as("non-negative" + at).isNotNegative();
            assertThat(decimal(row, "ListCost")).as("ListCost = ListUnitPrice x PricingQuantity" + at)
                    .isEqualByComparingTo(decimal(row, "ListUnitPrice").multiply(decimal(row, "PricingQuantity")));
            assertThat(decimal(row, "ContractedCost"))
                    .as("ContractedCost = ContractedUnitPrice x PricingQuantity" + at).isEqualByComparingTo(
                            decimal(row, "ContractedUnitPrice").multiply(decimal(row, "PricingQuantity")));
            assertThat(row.get("PricingUnit")).as("a compound unit of hours" + at).matches("[A-Za-z]+-Hours");
        }
        JsonNode tags = tags(row);
        assertThat(tags.isObject()).as("Tags is a JSON object" + at).isTrue();
        tags.fieldNames().forEachRemaining(k -> assertThat(k).as("provider-defined tags are prefixed" + at)
                .startsWith(FocusCsv.TAG_PREFIX));
    }

    /** Columns null exactly together. */
    private static void pairs(Map<String, String> row, String at) {
        String[][] together = {{"PricingQuantity", "PricingUnit"}, {"ConsumedQuantity", "ConsumedUnit"},
                {"BillingAccountId", "BillingAccountType"}, {"SubAccountId", "SubAccountType"},
                {"SubAccountId", "SubAccountName"}, {"ResourceId", "ResourceType"}, {"SkuPriceId", "SkuId"}};
        for (String[] pair : together) {
            assertThat(row.get(pair[1]) == null).as(pair[0] + " and " + pair[1] + " null together" + at)
                    .isEqualTo(row.get(pair[0]) == null);
        }
    }

    static BigDecimal decimal(Map<String, String> row, String column) {
        return new BigDecimal(row.get(column));
    }

    static Instant instant(Map<String, String> row, String column) {
        return Instant.parse(row.get(column));
    }

    private static JsonNode tags(Map<String, String> row) {
        try {
            return JSON.readTree(row.get("Tags"));
        } catch (IOException e) {
            throw new AssertionError("Tags is not JSON: " + row.get("Tags"), e);
        }
    }
}
