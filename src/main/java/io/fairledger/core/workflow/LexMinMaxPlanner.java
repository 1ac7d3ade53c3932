package io.fairledger.core.workflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * FlowTime's plan (seed 002 section V, eqs. 1-5): integral CPUs {@code x_it} per deadline job and slot, each job's
 * demand met inside its window, slot loads {@code z_t <= C_t}, minimising the vector of normalised loads {@code z_t /
 * C_t} lexicographically from the highest (min-max, then the next highest, ...).
 *
 * <p>
 * How. The constraint matrix is a transportation matrix, totally unimodular (the paper's Lemma 2), so for integral
 * slot caps {@code b_t} an integral plan exists exactly when the fractional one does: feasibility is a maximum flow
 * (source to job groups to slots to sink). Jobs with the same window are merged into one group, which changes no
 * slot load. Level by level: the smallest level {@code v} (a fraction {@code j / C_t}) at which the free slots, capped
 * at {@code floor(v C_t)}, still carry all demand is found by bisection over the candidate fractions; then the free
 * slots at level {@code v} that no augmenting path can lower (none reaches a slot with spare cap in the residual
 * graph) are pinned there; the others stay free for lower levels. When every slot at {@code v} could be lowered alone
 * but not all together, the first one is pinned (a tie the papers do not resolve). Exact arithmetic throughout.
 *
 * <p>
 * Why not a general LP solver here: one ojAlgo LP of the min-max level for 1,000 jobs x 100 slots (18,000 variables)
 * takes about 2 s, and the lexicographic plan needs one per level; {@link LpPeakPlanner} solves the same model with
 * ojAlgo and the tests check both agree. Cost: O(L log K) maximum flows for L levels and K candidate fractions.
 */
public final class LexMinMaxPlanner implements SlotPlanner {

    @Override
    public Optional<SlotPlan> plan(List<SlotJob> jobs, long[] capacity) {
        return new Instance(jobs, capacity).solve();
    }

    private static final class Instance {
        private final List<SlotJob> jobs;
        private final long[] capacity;
        private final int slots;
        private final List<long[]> windows = new ArrayList<>();
        private final List<List<SlotJob>> groups = new ArrayList<>();
        private final MaxFlow network;
        private final int source;
        private final int sink;
        private final int[] slotEdge;
        private final List<List<Integer>> groupSlotEdges = new ArrayList<>();
        private final List<List<int[]>> edgesIntoSlot;
        private long totalDemand;

        Instance(List<SlotJob> jobs, long[] capacity) {
            this.jobs = List.copyOf(jobs);
            this.capacity = capacity.clone();
            this.slots = capacity.length;
            for (int t = 0; t < slots; t++) {
                if (capacity[t] < 0) {
                    throw new IllegalArgumentException("slot " + t + " has negative capacity " + capacity[t]);
                }
            }
            Map<Long, Integer> byWindow = new LinkedHashMap<>();
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (SlotJob job : jobs) {
                if (!ids.add(job.id())) {
                    throw new IllegalArgumentException("duplicate job id " + job.id());
                }
                if (job.endSlot() > slots) {
                    throw new IllegalArgumentException("job " + job.id() + " ends at slot " + job.endSlot()
                            + " beyond the " + slots + " planned slots");
                }
                long key = (long) job.releaseSlot() * (slots + 1) + job.endSlot();
                int g = byWindow.computeIfAbsent(key, k -> {
                    windows.add(new long[]{job.releaseSlot(), job.endSlot(), 0});
                    groups.add(new ArrayList<>());
                    return groups.size() - 1;
                });
                groups.get(g).add(job);
                windows.get(g)[2] += job.demand();
                totalDemand = Math.addExact(totalDemand, job.demand());
            }
            int groupCount = groups.size();
            source = 0;
            sink = groupCount + slots + 1;
            network = new MaxFlow(sink + 1);
            edgesIntoSlot = new ArrayList<>();
            for (int t = 0; t < slots; t++) {
                edgesIntoSlot.add(new ArrayList<>());
            }
            for (int g = 0; g < groupCount; g++) {
                network.addEdge(source, 1 + g, windows.get(g)[2]);
                List<Integer> out = new ArrayList<>();
                for (int t = (int) windows.get(g)[0]; t < windows.get(g)[1]; t++) {
                    int e = network.addEdge(1 + g, 1 + groupCount + t, totalDemand);
                    out.add(e);
                    edgesIntoSlot.get(t).add(new int[]{g, e});
                }
                groupSlotEdges.add(out);
            }
            slotEdge = new int[slots];
            for (int t = 0; t < slots; t++) {
                slotEdge[t] = network.addEdge(1 + groupCount + t, sink, capacity[t]);
            }
        }

        private boolean feasible(long[] caps) {
            for (int t = 0; t < slots; t++) {
                network.setCapacity(slotEdge[t], caps[t]);
            }
            return network.run(source, sink) == totalDemand;
        }

        Optional<SlotPlan> solve() {
            if (!feasible(capacity)) {
                return Optional.empty();
            }
            long[] caps = new long[slots];
            boolean[] pinned = new boolean[slots];
            boolean[] covered = new boolean[slots];
            for (long[] w : windows) {
                for (int t = (int) w[0]; t < w[1]; t++) {
                    covered[t] = true;
                }
            }
            int free = 0;
            for (int t = 0; t < slots; t++) {
                if (!covered[t] || capacity[t] == 0) {
                    pinned[t] = true;
                } else {
                    free++;
                }
            }
            long[] upper = {1, 1};
            while (free > 0) {
                List<long[]> candidates = candidates(pinned, upper);
                int lo = 0;
                int hi = candidates.size() - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (feasible(capsAt(candidates.get(mid), pinned, caps))) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                long[] level = candidates.get(lo);
                long[] levelCaps = capsAt(level, pinned, caps);
                feasible(levelCaps);
                boolean[] lowerable = lowerable(levelCaps);
                int firstAtLevel = -1;
                int pinnedNow = 0;
                for (int t = 0; t < slots; t++) {
                    boolean atLevel = !pinned[t] && levelCaps[t] * level[1] == level[0] * capacity[t]
                            && network.flow(slotEdge[t]) == levelCaps[t];
                    boolean canBeAtLevel = !pinned[t] && levelCaps[t] * level[1] == level[0] * capacity[t];
                    if (canBeAtLevel && (firstAtLevel < 0 || capacity[t] > capacity[firstAtLevel])) {
                        firstAtLevel = t;
                    }
                    if (!pinned[t] && (level[0] == 0 || atLevel && !lowerable[t])) {
                        pinned[t] = true;
                        caps[t] = levelCaps[t];
                        pinnedNow++;
                    }
                }
                if (pinnedNow == 0) {
                    pinned[firstAtLevel] = true;
                    caps[firstAtLevel] = levelCaps[firstAtLevel];
                    pinnedNow = 1;
                }
                free -= pinnedNow;
                upper = level;
            }
            feasible(caps);
            return Optional.of(extract());
        }

        /** Distinct fractions {@code j / C_t} of free slots, at most {@code upper}, ascending; fractions as {num, den}. */
        private List<long[]> candidates(boolean[] pinned, long[] upper) {
            List<long[]> values = new ArrayList<>();
            for (int t = 0; t < slots; t++) {
                if (!pinned[t]) {
                    long top = upper[0] * capacity[t] / upper[1];
                    for (long j = 0; j <= top; j++) {
                        values.add(new long[]{j, capacity[t]});
                    }
                }
            }
            values.sort((a, b) -> Long.compare(a[0] * b[1], b[0] * a[1]));
            List<long[]> distinct = new ArrayList<>();
            for (long[] v : values) {
                if (distinct.isEmpty() || v[0] * distinct.get(distinct.size() - 1)[1] != distinct
                        .get(distinct.size() - 1)[0] * v[1]) {
                    distinct.add(v);
                }
            }
            return distinct;
        }

        private long[] capsAt(long[] level, boolean[] pinned, long[] pinnedCaps) {
            long[] result = new long[slots];
            for (int t = 0; t < slots; t++) {
                result[t] = pinned[t] ? pinnedCaps[t] : level[0] * capacity[t] / level[1];
            }
            return result;
        }

        /**
         * Slots whose load an augmenting path can lower: one that reaches, through groups, a slot with spare cap in
         * the residual graph of the current flow.
         */
        private boolean[] lowerable(long[] caps) {
            boolean[] slotMarked = new boolean[slots];
            boolean[] groupMarked = new boolean[groups.size()];
            int[] queue = new int[slots];
            int first = 0;
            int last = 0;
            for (int t = 0; t < slots; t++) {
                if (network.flow(slotEdge[t]) < caps[t]) {
                    slotMarked[t] = true;
                    queue[last++] = t;
                }
            }
            boolean[] spare = slotMarked.clone();
            while (first < last) {
                int t = queue[first++];
                for (int[] groupEdge : edgesIntoSlot.get(t)) {
                    int g = groupEdge[0];
                    if (groupMarked[g]) {
                        continue;
                    }
                    groupMarked[g] = true;
                    List<Integer> out = groupSlotEdges.get(g);
                    for (int i = 0; i < out.size(); i++) {
                        int e = out.get(i);
                        int slot = (int) windows.get(g)[0] + i;
                        if (!slotMarked[slot] && network.flow(e) > 0) {
                            slotMarked[slot] = true;
                            queue[last++] = slot;
                        }
                    }
                }
            }
            for (int t = 0; t < slots; t++) {
                slotMarked[t] &= !spare[t];
            }
            return slotMarked;
        }

        private SlotPlan extract() {
            Map<String, long[]> allocation = new LinkedHashMap<>();
            for (SlotJob job : jobs) {
                allocation.put(job.id(), new long[slots]);
            }
            for (int g = 0; g < groups.size(); g++) {
                long[] perSlot = new long[slots];
                List<Integer> out = groupSlotEdges.get(g);
                for (int i = 0; i < out.size(); i++) {
                    perSlot[(int) windows.get(g)[0] + i] = network.flow(out.get(i));
                }
                int t = 0;
                for (SlotJob job : groups.get(g)) {
                    long need = job.demand();
                    long[] mine = allocation.get(job.id());
                    while (need > 0) {
                        long take = Math.min(need, perSlot[t]);
                        mine[t] += take;
                        perSlot[t] -= take;
                        need -= take;
                        if (perSlot[t] == 0) {
                            t++;
                        }
                    }
                }
            }
            return new SlotPlan("lex-min-max", allocation, capacity, List.of());
        }
    }
}
