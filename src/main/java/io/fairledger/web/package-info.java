/**
 * HTTP errors as RFC 9457 problem+json: the one table from domain errors to statuses, strict request bodies and
 * parameters, checks before routing, and a {@code Retry-After} on every 503.
 */
package io.fairledger.web;
