/** The billing REST resource: the FOCUS export and invoices (docs/api.md). */
package io.fairledger.billing.rest;
