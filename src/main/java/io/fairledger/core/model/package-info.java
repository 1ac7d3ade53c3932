/**
 * The domain's value types: cluster and tenant configuration, tenant paths, resource vectors and how one becomes a
 * share, price plans, memory modes, the early-bird rule and the rule for plain text.
 */
package io.fairledger.core.model;
