/** Jain's fairness index. */
package io.fairledger.core.stats;
