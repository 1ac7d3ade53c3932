package io.fairledger.core.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.fairledger.core.scenario.StepScenarioRunner.Policy;

/** LTRF Table 1 (Tang et al., 2014), every row of the three cases in {@code table1.json}, through the grant engine. */
class Table1Test {

    static StepScenario table1() {
        Map<String, Double> weights = new LinkedHashMap<>();
        weights.put("A", 1.0);
        weights.put("B", 1.0);
        Map<String, List<Double>> demand = new LinkedHashMap<>();
        demand.put("A", List.of(20.0, 40.0, 80.0, 60.0));
        demand.put("B", List.of(100.0, 60.0, 50.0, 50.0));
        return new StepScenario(100, weights, 4, demand, true);
    }

    private static List<Double> row(double... v) {
        return java.util.Arrays.stream(v).boxed().toList();
    }

    @Test
    void memorylessCaseGives160And240() {
        var r = StepScenarioRunner.run(table1(), Policy.MLRF, 1.0).tenants();
        assertThat(r.get("A").totalDemand()).isEqualTo(row(20, 40, 80, 90));
        assertThat(r.get("B").totalDemand()).isEqualTo(row(100, 80, 70, 70));
        assertThat(r.get("A").allocation()).isEqualTo(row(20, 40, 50, 50));
        assertThat(r.get("B").allocation()).isEqualTo(row(80, 60, 50, 50));
        assertThat(r.get("A").accumulated()).isEqualTo(row(20, 60, 110, 160));
        assertThat(r.get("B").accumulated()).isEqualTo(row(80, 140, 190, 240));
        assertThat(r.get("A").preempt()).isEqualTo(row(-30, -10, 0, 0));
        assertThat(r.get("B").preempt()).isEqualTo(row(30, 10, 0, 0));
    }

    @Test
    void longTermCaseGives200And200() {
        var r = StepScenarioRunner.run(table1(), Policy.LTRF, 1.0).tenants();
        assertThat(r.get("A").totalDemand()).isEqualTo(row(20, 40, 80, 60));
        assertThat(r.get("B").totalDemand()).isEqualTo(row(100, 80, 70, 100));
        assertThat(r.get("A").allocation()).isEqualTo(row(20, 40, 80, 60));
        assertThat(r.get("B").allocation()).isEqualTo(row(80, 60, 20, 40));
        assertThat(r.get("A").accumulated()).isEqualTo(row(20, 60, 140, 200));
        assertThat(r.get("B").accumulated()).isEqualTo(row(80, 140, 160, 200));
        assertThat(r.get("A").preempt()).isEqualTo(row(-30, -10, 30, 10));
        assertThat(r.get("B").preempt()).isEqualTo(row(30, 10, -30, -10));
    }

    @Test
    void discountedCaseCounts180And180OfReal200() {
        var r = StepScenarioRunner.run(table1(), Policy.LTRF, 0.5).tenants();
        assertThat(r.get("A").totalDemand()).isEqualTo(row(20, 40, 80, 60));
        assertThat(r.get("B").totalDemand()).isEqualTo(row(100, 80, 70, 100));
        assertThat(r.get("A").allocation()).isEqualTo(row(20, 40, 80, 60));
        assertThat(r.get("B").allocation()).isEqualTo(row(80, 60, 20, 40));
        assertThat(r.get("A").countedAllocation()).isEqualTo(row(20, 40, 65, 55));
        assertThat(r.get("B").countedAllocation()).isEqualTo(row(65, 55, 20, 40));
        assertThat(r.get("A").countedAccumulated()).isEqualTo(row(20, 60, 125, 180));
        assertThat(r.get("B").countedAccumulated()).isEqualTo(row(65, 120, 140, 180));
        assertThat(r.get("A").accumulated()).isEqualTo(row(20, 60, 140, 200));
        assertThat(r.get("B").accumulated()).isEqualTo(row(80, 140, 160, 200));
    }
}
