package io.fairledger.core.admission;

/**
 * How Justice averages its estimation errors {@code minReqRate - LastCPUFrac} ({@code CALC_SMOOTHED_AVG}, Dimopoulos's
 * dissertation (2018) Algorithm 5 line 2): "the same weights to all past errors or exponential smoothing". Default:
 * equal weights (docs/domain.md section 9).
 */
public sealed interface ErrorSmoothing permits ErrorSmoothing.EqualWeights, ErrorSmoothing.Exponential {

    /** A fresh running average with no errors in it. */
    Average newAverage();

    /** Short name used in options and reports. */
    String describe();

    /**
     * The smoothing called {@code name}: {@code equal}, or {@code exponential} with factor {@code alpha}.
     *
     * @throws IllegalArgumentException
     *             for another name or an alpha outside (0, 1]
     */
    static ErrorSmoothing named(String name, double alpha) {
        return switch (name) {
            case "equal" -> new EqualWeights();
            case "exponential" -> new Exponential(alpha);
            default -> throw new IllegalArgumentException("smoothing must be equal or exponential, got '" + name + "'");
        };
    }

    /** The arithmetic mean of all errors so far. O(1) per error. */
    record EqualWeights() implements ErrorSmoothing {
        @Override
        public Average newAverage() {
            return new Average() {
                private double sum;
                private long count;

                @Override
                public void add(double error) {
                    sum += error;
                    count++;
                }

                @Override
                public double value() {
                    return count == 0 ? 0 : sum / count;
                }
            };
        }

        @Override
        public String describe() {
            return "equal";
        }
    }

    /**
     * Exponential smoothing {@code s_k = alpha * e_k + (1 - alpha) * s_(k-1)}, started at the first error ({@code s_1 =
     * e_1}); a larger {@code alpha} trusts recent errors more.
     */
    record Exponential(double alpha) implements ErrorSmoothing {
        public Exponential {
            if (!(alpha > 0 && alpha <= 1)) {
                throw new IllegalArgumentException("smoothing factor alpha must be in (0, 1], got " + alpha);
            }
        }

        @Override
        public Average newAverage() {
            return new Average() {
                private double smoothed;
                private boolean empty = true;

                @Override
                public void add(double error) {
                    smoothed = empty ? error : alpha * error + (1 - alpha) * smoothed;
                    empty = false;
                }

                @Override
                public double value() {
                    return smoothed;
                }
            };
        }

        @Override
        public String describe() {
            return "exponential(alpha=" + alpha + ")";
        }
    }

    /** A running average of errors; 0 while empty. */
    interface Average {
        void add(double error);

        double value();
    }
}
