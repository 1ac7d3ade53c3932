package io.fairledger.core.scenario;

import java.util.List;
import java.util.Map;

/**
 * Per tenant, per step, what a {@link StepScenarioRunner} computed, in the shape of {@code table1.json}'s cases.
 *
 * @param policy
 *            MLRF or LTRF
 * @param discountRate
 *            eta used for the counted values
 * @param tenants
 *            tenant name to its rows
 */
public record StepScenarioResult(StepScenarioRunner.Policy policy, double discountRate, Map<String, Rows> tenants) {

    public StepScenarioResult {
        tenants = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tenants));
    }

    /**
     * One tenant's rows.
     *
     * @param totalDemand
     *            new demand plus carried-over unmet demand
     * @param allocation
     *            granted
     * @param accumulated
     *            running sum of allocation (actual, A)
     * @param countedAllocation
     *            counted value of the allocation (LTRF eq. 7)
     * @param countedAccumulated
     *            running sum of counted allocation (F)
     * @param preempt
     *            allocation minus share: lent (-) or borrowed (+), the paper's column
     */
    public record Rows(List<Double> totalDemand, List<Double> allocation, List<Double> accumulated,
            List<Double> countedAllocation, List<Double> countedAccumulated, List<Double> preempt) {
        public Rows {
            totalDemand = List.copyOf(totalDemand);
            allocation = List.copyOf(allocation);
            accumulated = List.copyOf(accumulated);
            countedAllocation = List.copyOf(countedAllocation);
            countedAccumulated = List.copyOf(countedAccumulated);
            preempt = List.copyOf(preempt);
        }
    }
}
