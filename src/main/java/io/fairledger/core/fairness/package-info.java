/**
 * Fairness degrees {@code rho = A / E} of tenants and the fairness report over an accounting window (LTRF eqs. 3-5,
 * Tang et al., 2014).
 */
package io.fairledger.core.fairness;
