package io.fairledger.core.scenario;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fairledger.core.grant.Claimant;
import io.fairledger.core.grant.GrantPolicy;
import io.fairledger.core.grant.GrantRequest;
import io.fairledger.core.grant.Grants;
import io.fairledger.core.grant.LongTermMaxMin;
import io.fairledger.core.grant.MemorylessMaxMin;

/**
 * Runs a {@link StepScenario} through the grant engine ({@link LongTermMaxMin}, or {@link MemorylessMaxMin} for MLRF),
 * as LTRF's Table 1 does (Tang et al., 2014, section 3): at each step every tenant's total demand is its new demand
 * plus what was not granted before; grants are computed with a grant interval of one step; the scheduling value is the
 * counted accumulated allocation F (LTRF eq. 7) for LTRF and 0 for MLRF.
 *
 * <p>
 * Amounts are kept in capacity units (g measured against a unit capacity, shares {@code capacity x w / sum w}) so
 * integral scenarios are computed in integers. Reported values are rounded to {@link #DECIMALS} decimals (HALF_EVEN)
 * to drop floating-point noise; Table 1 is reproduced exactly.
 */
public final class StepScenarioRunner {

    /** The two policies of LTRF's Table 1. */
    public enum Policy {
        /** Memoryless max-min: YARN and Mesos today. */
        MLRF,
        /** Long-term max-min, full memory. */
        LTRF
    }

    /** Decimals kept in reported values. */
    public static final int DECIMALS = 9;

    private StepScenarioRunner() {
    }

    /** Runs {@code scenario} under {@code policy} with discount rate {@code eta} in [0, 1]. */
    public static StepScenarioResult run(StepScenario scenario, Policy policy, double eta) {
        if (!(eta >= 0 && eta <= 1)) {
            throw new IllegalArgumentException("discount rate must be in [0,1], got " + eta);
        }
        GrantPolicy engine = policy == Policy.LTRF ? new LongTermMaxMin() : new MemorylessMaxMin();
        List<String> names = new ArrayList<>(scenario.weights().keySet());
        double weightSum = scenario.weights().values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, double[][]> rows = new LinkedHashMap<>();
        double[] carried = new double[names.size()];
        double[] actual = new double[names.size()];
        double[] counted = new double[names.size()];
        for (String name : names) {
            rows.put(name, new double[6][scenario.steps()]);
        }
        for (int step = 0; step < scenario.steps(); step++) {
            List<Claimant> claimants = new ArrayList<>();
            double[] total = new double[names.size()];
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                double w = scenario.weights().get(name);
                double share = weightSum > 0 ? scenario.capacity() * w / weightSum : 0;
                total[i] = scenario.newDemand().get(name).get(step) + carried[i];
                double base = policy == Policy.LTRF ? counted[i] : 0;
                claimants.add(new Claimant(name, w, share, new double[]{total[i]}, base, eta));
            }
            Grants grants = engine.grant(new GrantRequest(new double[]{1}, new double[]{scenario.capacity()},
                    1, claimants));
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i);
                Claimant c = claimants.get(i);
                double a = grants.grants().get(i).allocation()[0];
                double countedA = Math.min(a, c.share()) + eta * Math.max(a - c.share(), 0);
                actual[i] += a;
                counted[i] += countedA;
                carried[i] = scenario.unmetDemandCarriesOver() ? Math.max(0, total[i] - a) : 0;
                double[][] r = rows.get(name);
                r[0][step] = total[i];
                r[1][step] = a;
                r[2][step] = actual[i];
                r[3][step] = countedA;
                r[4][step] = counted[i];
                r[5][step] = a - c.share();
            }
        }
        Map<String, StepScenarioResult.Rows> out = new LinkedHashMap<>();
        for (var e : rows.entrySet()) {
            double[][] r = e.getValue();
            out.put(e.getKey(), new StepScenarioResult.Rows(rounded(r[0]), rounded(r[1]), rounded(r[2]),
                    rounded(r[3]), rounded(r[4]), rounded(r[5])));
        }
        return new StepScenarioResult(policy, eta, out);
    }

    private static List<Double> rounded(double[] values) {
        List<Double> out = new ArrayList<>(values.length);
        for (double v : values) {
            double r = BigDecimal.valueOf(v).setScale(DECIMALS, RoundingMode.HALF_EVEN).doubleValue();
            out.add(r == 0 ? 0.0 : r);
        }
        return out;
    }
}
