package io.fairledger.core.model;

/**
 * An amount of each resource type, in exact integer units: millicores (1 vcore = 1000, so Mesos' fractional cpus are
 * exact), megabytes of memory and whole GPUs. Used for cluster capacities, task sizes and pending demand.
 *
 * <p>
 * Decision: the resource types are fixed fields rather than a map, because every ledger update touches them and a
 * map would allocate; docs/domain.md section 1 names exactly these three types.
 */
public record ResourceVector(long millicores, long memoryMb, long gpus) {

    /** The empty vector. */
    public static final ResourceVector ZERO = new ResourceVector(0, 0, 0);

    /** Number of resource types, and the index order used by {@link #get(int)}: millicores, memory_mb, gpus. */
    public static final int TYPES = 3;

    public ResourceVector {
        if (millicores < 0 || memoryMb < 0 || gpus < 0) {
            throw new IllegalArgumentException("resource amounts must be >= 0, got millicores=" + millicores
                    + " memoryMb=" + memoryMb + " gpus=" + gpus);
        }
    }

    /** A vector from whole vcores (converted to millicores), memory in MB and GPUs. */
    public static ResourceVector of(long vcores, long memoryMb, long gpus) {
        return new ResourceVector(Math.multiplyExact(vcores, 1000L), memoryMb, gpus);
    }

    /** The amount of type {@code index} (0 millicores, 1 memory_mb, 2 gpus). */
    public long get(int index) {
        return switch (index) {
            case 0 -> millicores;
            case 1 -> memoryMb;
            case 2 -> gpus;
            default -> throw new IllegalArgumentException("resource index must be 0..2, got " + index);
        };
    }

    /** Component-wise sum; throws {@link ArithmeticException} on overflow. */
    public ResourceVector plus(ResourceVector other) {
        return new ResourceVector(Math.addExact(millicores, other.millicores), Math.addExact(memoryMb, other.memoryMb),
                Math.addExact(gpus, other.gpus));
    }

    /** True when every component is 0. */
    public boolean isZero() {
        return millicores == 0 && memoryMb == 0 && gpus == 0;
    }

    /** The name of resource type {@code index} as operators know it. */
    public static String typeName(int index) {
        return switch (index) {
            case 0 -> "millicores";
            case 1 -> "memory_mb";
            case 2 -> "gpus";
            default -> throw new IllegalArgumentException("resource index must be 0..2, got " + index);
        };
    }
}
