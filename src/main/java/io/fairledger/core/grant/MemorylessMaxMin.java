package io.fairledger.core.grant;

import java.util.ArrayList;
import java.util.List;

/**
 * Memoryless weighted max-min (MLRF, what YARN's and Mesos' fair schedulers do; LTRF section 2, Tang et al., 2014): the
 * same water-filling as {@link LongTermMaxMin} with every accumulated value taken as 0, so only the current interval
 * counts.
 */
public final class MemorylessMaxMin implements GrantPolicy {

    private final LongTermMaxMin engine = new LongTermMaxMin();

    @Override
    public Grants grant(GrantRequest request) {
        List<Claimant> zeroed = new ArrayList<>(request.claimants().size());
        for (Claimant c : request.claimants()) {
            zeroed.add(new Claimant(c.id(), c.weight(), c.share(), c.demand(), 0, c.discountRate()));
        }
        return engine.grant(new GrantRequest(request.clusterCapacity(), request.available(), request.interval(),
                zeroed));
    }

    @Override
    public String toString() {
        return "MemorylessMaxMin";
    }
}
