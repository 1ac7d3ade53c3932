/**
 * Grant rounds: long-term and memoryless weighted max-min splits of what is available among tenants (LTRF, Tang et
 * al., 2014), level by level over a tenant tree.
 */
package io.fairledger.core.grant;
