package io.fairledger.core.grant;

/**
 * One tenant asking for resources in a grant round (docs/domain.md section 7).
 *
 * @param id
 *            the tenant's name, for the result
 * @param weight
 *            {@code w >= 0}; a weight-0 claimant is served only from what the others leave
 * @param share
 *            its share S, in the units of {@link GrantRequest#clusterCapacity()} shares (a fraction when shares are
 *            fractions of capacity)
 * @param demand
 *            what it could use now (held + pending), per resource type, in capacity units
 * @param accumulated
 *            its scheduling value {@code F + phi + quantum top-up}, in share x time; 0 for MLRF
 * @param discountRate
 *            eta for the counted rate (LTRF eq. 7)
 */
public record Claimant(String id, double weight, double share, double[] demand, double accumulated,
        double discountRate) {

    public Claimant {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("claimant id must not be blank");
        }
        requireFiniteNonNegative(weight, "weight of " + id);
        requireFiniteNonNegative(share, "share of " + id);
        requireFiniteNonNegative(accumulated, "accumulated value of " + id);
        if (!(discountRate >= 0 && discountRate <= 1)) {
            throw new IllegalArgumentException("discount rate of " + id + " must be in [0,1], got " + discountRate);
        }
        demand = demand.clone();
        for (double d : demand) {
            requireFiniteNonNegative(d, "demand of " + id);
        }
    }

    @Override
    public double[] demand() {
        return demand.clone();
    }

    double demandAt(int r) {
        return demand[r];
    }

    static void requireFiniteNonNegative(double v, String what) {
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException(what + " must be finite and >= 0, got " + v);
        }
    }
}
