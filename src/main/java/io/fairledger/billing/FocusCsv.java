package io.fairledger.billing;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * Charges as a FOCUS 1.3 cost and usage dataset in CSV (RFC 4180, header first): the columns 1.3 makes mandatory,
 * and the conditional and recommended ones that apply to a shared cluster's chargeback. A null is an empty field;
 * numbers are plain decimals (no exponent, no sign for a positive value); instants are {@code YYYY-MM-DDTHH:mm:ssZ}
 * in UTC; {@code Tags} is a JSON object whose keys carry the prefix {@value #TAG_PREFIX}. docs/billing.md explains
 * the value of each column.
 */
public final class FocusCsv {

    /** The prefix of the tags fairledger defines. */
    public static final String TAG_PREFIX = "fairledger/";

    /** The columns, in order (alphabetical, as the specification lists them). */
    public static final List<String> COLUMNS = List.of("BilledCost", "BillingAccountId", "BillingAccountName",
            "BillingAccountType", "BillingCurrency", "BillingPeriodEnd", "BillingPeriodStart", "ChargeCategory",
            "ChargeClass", "ChargeDescription", "ChargeFrequency", "ChargePeriodEnd", "ChargePeriodStart",
            "ConsumedQuantity", "ConsumedUnit", "ContractedCost", "ContractedUnitPrice", "EffectiveCost",
            "HostProviderName", "InvoiceId", "InvoiceIssuerName", "ListCost", "ListUnitPrice", "PricingCategory",
            "PricingQuantity", "PricingUnit", "ProviderName", "PublisherName", "ResourceId", "ResourceName",
            "ResourceType", "ServiceCategory", "ServiceName", "ServiceProviderName", "ServiceSubcategory", "SkuId",
            "SkuPriceId", "SubAccountId", "SubAccountName", "SubAccountType", "Tags");

    private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder().setRecordSeparator('\n').get();
    private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    private FocusCsv() {
    }

    /** The CSV of {@code rows}; {@code provider} names the cluster's operator (its registered name). */
    public static String write(List<ChargeRow> rows, String provider) {
        StringWriter out = new StringWriter();
        try (CSVPrinter csv = new CSVPrinter(out, FORMAT)) {
            csv.printRecord(COLUMNS);
            for (ChargeRow row : rows) {
                Map<String, String> values = values(row, provider);
                List<String> record = new ArrayList<>(COLUMNS.size());
                COLUMNS.forEach(c -> record.add(values.get(c)));
                csv.printRecord(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write CSV to memory", e);
        }
        return out.toString();
    }

    /** One row's values by column; a column absent from the map is null. */
    static Map<String, String> values(ChargeRow row, String provider) {
        Map<String, String> v = new LinkedHashMap<>();
        v.put("BilledCost", plain(row.billedCost()));
        v.put("EffectiveCost", plain(row.billedCost()));
        v.put("ListCost", plain(row.listCost()));
        v.put("ContractedCost", plain(row.contractedCost()));
        v.put("BillingAccountId", row.cluster());
        v.put("BillingAccountName", provider);
        v.put("BillingAccountType", "Cluster");
        v.put("BillingCurrency", row.currency());
        v.put("BillingPeriodStart", instant(row.billingStart()));
        v.put("BillingPeriodEnd", instant(row.billingEnd()));
        v.put("ChargePeriodStart", instant(row.chargeStart()));
        v.put("ChargePeriodEnd", instant(row.chargeEnd()));
        v.put("ChargeCategory", "Usage");
        v.put("ChargeFrequency", "Usage-Based");
        v.put("InvoiceId", row.invoiceId());
        v.put("InvoiceIssuerName", provider);
        v.put("ServiceProviderName", provider);
        v.put("HostProviderName", provider);
        v.put("ProviderName", provider);
        v.put("PublisherName", provider);
        v.put("ServiceName", "Shared cluster compute");
        v.put("ServiceCategory", "Compute");
        v.put("ServiceSubcategory", "Other (Compute)");
        v.put("ResourceId", row.cluster() + "/" + row.tenant());
        v.put("ResourceName", row.tenant());
        v.put("ResourceType", "Tenant queue");
        v.put("SubAccountId", row.tenant());
        v.put("SubAccountName", row.tenant());
        v.put("SubAccountType", "Tenant");
        v.put("Tags", tags(row));
        if (row.correction()) {
            v.put("ChargeClass", "Correction");
            v.put("ChargeDescription", "Correction of period " + row.chargePeriod() + " for " + row.tenant() + ": "
                    + row.reason());
            return v;
        }
        Resource r = row.resource();
        v.put("ChargeDescription", r.label() + " of " + row.tenant() + " in period " + row.billingPeriod()
                + " at plan " + row.plan() + ", " + plain(row.contractedUnitPrice()) + " " + row.currency()
                + " each, less the discount on what was borrowed");
        v.put("ConsumedQuantity", plain(row.quantity()));
        v.put("ConsumedUnit", r.unit());
        v.put("PricingQuantity", plain(row.quantity()));
        v.put("PricingUnit", r.unit());
        v.put("ListUnitPrice", plain(row.listUnitPrice()));
        v.put("ContractedUnitPrice", plain(row.contractedUnitPrice()));
        v.put("PricingCategory", "Standard");
        v.put("SkuId", r.label());
        v.put("SkuPriceId", r.label() + "/" + row.plan());
        return v;
    }

    private static String tags(ChargeRow row) {
        Map<String, String> tags = new LinkedHashMap<>();
        tags.put(TAG_PREFIX + "cluster", row.cluster());
        tags.put(TAG_PREFIX + "tenant", row.tenant());
        try {
            return JSON.writeValueAsString(tags);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write tags", e);
        }
    }

    /** FOCUS has whole seconds: a period bound is written truncated to its second. */
    private static String instant(Instant at) {
        return INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }

    private static String plain(BigDecimal value) {
        return value.toPlainString();
    }
}
