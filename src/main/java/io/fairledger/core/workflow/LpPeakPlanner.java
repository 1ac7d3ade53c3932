package io.fairledger.core.workflow;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

import org.ojalgo.optimisation.Expression;
import org.ojalgo.optimisation.ExpressionsBasedModel;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.Variable;

/**
 * FlowTime's model (Hu et al., 2018, eqs. 1-5) for its first, min-max level, solved as written with ojAlgo's
 * {@link ExpressionsBasedModel}: integer {@code x_it >= 0} for the slots of each job's window, {@code sum_t x_it =
 * s_i}, {@code sum_i x_it <= u C_t}, minimise the peak normalised load {@code u}. It is the reference the fast
 * {@link LexMinMaxPlanner} is checked against (same peak); it does not order the lower levels. Cost: one MIP, whose
 * relaxation's vertices are integral in {@code x} (Lemma 2) but ojAlgo still branches: practical only on small
 * instances (at 1,000 jobs x 100 slots it did not finish within JMH's 10-minute timeout); {@link #relaxedPeak} solves
 * the relaxation alone.
 */
public final class LpPeakPlanner implements SlotPlanner {

    @Override
    public Optional<SlotPlan> plan(List<SlotJob> jobs, long[] capacity) {
        Map<String, List<Variable>> variables = new LinkedHashMap<>();
        ExpressionsBasedModel model = model(jobs, capacity, true, variables);
        Optimisation.Result result = model.minimise();
        if (!result.getState().isFeasible()) {
            return Optional.empty();
        }
        Map<String, long[]> allocation = new LinkedHashMap<>();
        for (SlotJob job : jobs) {
            long[] perSlot = new long[capacity.length];
            List<Variable> mine = variables.get(job.id());
            for (int i = 0; i < mine.size(); i++) {
                BigDecimal value = mine.get(i).getValue();
                perSlot[job.releaseSlot() + i] = Math.round(value.doubleValue());
            }
            allocation.put(job.id(), perSlot);
        }
        return Optional.of(new SlotPlan("lp-peak", allocation, capacity, List.of()));
    }

    /**
     * The peak of the LP relaxation (continuous {@code x}): a lower bound on the integral peak, and the cost of one
     * LP solve of the paper's first level with ojAlgo; empty when infeasible.
     */
    public OptionalDouble relaxedPeak(List<SlotJob> jobs, long[] capacity) {
        Optimisation.Result result = model(jobs, capacity, false, new LinkedHashMap<>()).minimise();
        return result.getState().isFeasible() ? OptionalDouble.of(result.getValue()) : OptionalDouble.empty();
    }

    private static ExpressionsBasedModel model(List<SlotJob> jobs, long[] capacity, boolean integral,
            Map<String, List<Variable>> variables) {
        ExpressionsBasedModel model = new ExpressionsBasedModel();
        Variable peak = model.addVariable("u").lower(0).upper(1).weight(1);
        Expression[] slotLoad = new Expression[capacity.length];
        for (int t = 0; t < capacity.length; t++) {
            slotLoad[t] = model.addExpression("slot" + t).upper(0);
            slotLoad[t].set(peak, -capacity[t]);
        }
        for (SlotJob job : jobs) {
            if (job.endSlot() > capacity.length) {
                throw new IllegalArgumentException("job " + job.id() + " ends at slot " + job.endSlot()
                        + " beyond the " + capacity.length + " planned slots");
            }
            Expression demand = model.addExpression("demand " + job.id()).level(job.demand());
            List<Variable> mine = new ArrayList<>();
            for (int t = job.releaseSlot(); t < job.endSlot(); t++) {
                Variable x = model.addVariable(job.id() + "@" + t).lower(0).integer(integral);
                demand.set(x, 1);
                slotLoad[t].set(x, 1);
                mine.add(x);
            }
            variables.put(job.id(), mine);
        }
        return model;
    }
}
