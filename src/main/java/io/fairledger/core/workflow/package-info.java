/**
 * Workflows with one deadline and FlowTime (Hu, Li, Chen and Ke, 2018): deadline decomposition over the DAG and the
 * plans of deadline jobs over time slots (lexicographic min-max, its LP and the EDF fallback).
 */
package io.fairledger.core.workflow;
