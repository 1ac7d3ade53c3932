/**
 * Admission control served for each cluster: the admission log it owns (table {@code admission_event}) replayed
 * through the cluster's policy, the workflows' FlowTime plans, and the decisions published to Kafka.
 */
package io.fairledger.admission;
