/** fairledger: long-term fairness and chargeback accounting for shared compute clusters. */
package io.fairledger;
