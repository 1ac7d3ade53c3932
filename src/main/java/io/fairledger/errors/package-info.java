/**
 * The domain errors that services, the consumer and the live ledgers throw ({@code NotFound}, {@code Conflict}, {@code
 * Invalid}, {@code NotReady}, {@code AccessDenied}), said in the domain's terms and turned into HTTP only by {@code
 * io.fairledger.web}.
 */
package io.fairledger.errors;
