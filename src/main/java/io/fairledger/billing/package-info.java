/**
 * Bills made from the closed statements: the FOCUS 1.3 export ({@link io.fairledger.billing.FocusCsv}) and invoices
 * ({@link io.fairledger.billing.Invoice}, as PDF {@link io.fairledger.billing.InvoicePdf}), both from the one mapping
 * of a statement to charges, {@link io.fairledger.billing.ChargeRows} (docs/billing.md).
 */
package io.fairledger.billing;
