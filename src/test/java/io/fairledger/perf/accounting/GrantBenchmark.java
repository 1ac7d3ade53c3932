package io.fairledger.perf.accounting;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.fairledger.core.grant.Claimant;
import io.fairledger.core.grant.GrantRequest;
import io.fairledger.core.grant.Grants;
import io.fairledger.core.grant.LongTermMaxMin;

/**
 * One grant round of {@link LongTermMaxMin} for 1,000 tenants with random weights, histories and demands exceeding
 * capacity, over one resource type and over three (dominant share).
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class GrantBenchmark {

    @Param({"1", "3"})
    public int types;

    @Param({"1000"})
    public int tenants;

    private GrantRequest request;
    private final LongTermMaxMin policy = new LongTermMaxMin();

    @Setup
    public void setUp() {
        Random rnd = new Random(42);
        double[] cap = new double[types];
        for (int r = 0; r < types; r++) {
            cap[r] = 100_000 * (r + 1);
        }
        double[] weights = new double[tenants];
        double sum = 0;
        for (int i = 0; i < tenants; i++) {
            weights[i] = 1 + rnd.nextInt(4);
            sum += weights[i];
        }
        List<Claimant> cs = new ArrayList<>();
        for (int i = 0; i < tenants; i++) {
            double[] d = new double[types];
            for (int r = 0; r < types; r++) {
                d[r] = rnd.nextDouble() * cap[r] / 300;
            }
            cs.add(new Claimant("t" + i, weights[i], weights[i] / sum, d, rnd.nextDouble() * 1e6, 0.5));
        }
        request = new GrantRequest(cap, cap, 10_000, cs);
    }

    @Benchmark
    public Grants grant() {
        return policy.grant(request);
    }
}
