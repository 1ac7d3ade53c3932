/** Deadline models {@code D = x * T} and the seeded generator that assigns them to a trace's jobs. */
package io.fairledger.core.deadline;
