/**
 * Admission control and CPU allocation for deadline jobs (Justice, PYTHIA, Oracle and the fair-share baselines of
 * Dimopoulos's dissertation, 2018, and Dimopoulos, Krintz and Wolski, 2019), with the queue, its exact indexed
 * admission pass and the request estimators.
 */
package io.fairledger.core.admission;
