/**
 * The admission API: job and workflow submissions and completions, a cluster's admission policy, and why a job got its
 * decisions.
 */
package io.fairledger.admission.rest;
