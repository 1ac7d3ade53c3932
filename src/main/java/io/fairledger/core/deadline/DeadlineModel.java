package io.fairledger.core.deadline;

import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * A deadline formulation {@code D = x * T}, {@code T} the job's runtime on an empty cluster (Dimopoulos's dissertation
 * (2018) section 4.2, Justice (Dimopoulos et al., 2019) section IV; docs/domain.md section 9). A model draws the
 * multiplier {@code x}.
 */
public sealed interface DeadlineModel permits DeadlineModel.Fixed, DeadlineModel.TwoPoint, DeadlineModel.Uniform {

    /** Name as the papers and the command line use it. */
    String name();

    /** Draws {@code x}; consumes exactly one value from {@code random} (none for {@link Fixed}). */
    double multiplier(RandomGenerator random);

    /** Fixed1x: x = 1. */
    DeadlineModel FIXED_1X = new Fixed("Fixed1x", 1);
    /** Fixed2x: x = 2 (Dimopoulos's dissertation (2018), after [91, 92]). */
    DeadlineModel FIXED_2X = new Fixed("Fixed2x", 2);
    /** Jockey1x2x: x in {1, 2} with equal probability. */
    DeadlineModel JOCKEY_1X_2X = new TwoPoint("Jockey1x2x", 1, 2, 0.5);
    /** Jockey2x4x: x in {2, 4} with equal probability. */
    DeadlineModel JOCKEY_2X_4X = new TwoPoint("Jockey2x4x", 2, 4, 0.5);
    /** 90loose: x = 2 with probability 0.9, else 1. */
    DeadlineModel LOOSE_90 = new TwoPoint("90loose", 1, 2, 0.9);
    /** Aria1x3x: x uniform in [1, 3]. */
    DeadlineModel ARIA_1X_3X = new Uniform("Aria1x3x", 1, 3);
    /** Aria2x4x: x uniform in [2, 4]. */
    DeadlineModel ARIA_2X_4X = new Uniform("Aria2x4x", 2, 4);

    /** Every model, in the order above. */
    List<DeadlineModel> ALL = List.of(FIXED_1X, FIXED_2X, JOCKEY_1X_2X, JOCKEY_2X_4X, LOOSE_90, ARIA_1X_3X,
            ARIA_2X_4X);

    /** The model called {@code name} (case-insensitive). */
    static DeadlineModel named(String name) {
        Objects.requireNonNull(name, "name");
        return ALL.stream().filter(m -> m.name().equalsIgnoreCase(name)).findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException("unknown deadline model '" + name + "', expected one of "
                                + ALL.stream().map(DeadlineModel::name).toList()));
    }

    /** Always {@code x}. */
    record Fixed(String name, double x) implements DeadlineModel {
        public Fixed {
            if (!(x > 0)) {
                throw new IllegalArgumentException("multiplier must be positive, got " + x);
            }
        }

        @Override
        public double multiplier(RandomGenerator random) {
            return x;
        }
    }

    /** {@code high} with probability {@code pHigh}, else {@code low}. */
    record TwoPoint(String name, double low, double high, double pHigh) implements DeadlineModel {
        public TwoPoint {
            if (!(low > 0 && high >= low)) {
                throw new IllegalArgumentException("need 0 < low <= high, got " + low + ", " + high);
            }
            if (!(pHigh >= 0 && pHigh <= 1)) {
                throw new IllegalArgumentException("probability must be in [0, 1], got " + pHigh);
            }
        }

        @Override
        public double multiplier(RandomGenerator random) {
            return random.nextDouble() < pHigh ? high : low;
        }
    }

    /** Uniform in {@code [low, high]}. */
    record Uniform(String name, double low, double high) implements DeadlineModel {
        public Uniform {
            if (!(low > 0 && high >= low)) {
                throw new IllegalArgumentException("need 0 < low <= high, got " + low + ", " + high);
            }
        }

        @Override
        public double multiplier(RandomGenerator random) {
            return low + (high - low) * random.nextDouble();
        }
    }
}
