package io.fairledger.core.model;

/**
 * An amount of each resource type, in exact integer units: millicores (1 vcore = 1000, so Mesos' fractional cpus are
 * exact), thousandths of a MB of memory ({@link MemoryUnits}: Mesos' fractional mem is exact too, YARN's whole MB are
 * whole thousands) and whole GPUs. Used for cluster capacities, task sizes and pending demand.
 *
 * <p>
 * Decision: the resource types are fixed fields rather than a map, because every ledger update touches them and a
 * map would allocate; docs/domain.md section 1 names exactly these three types.
 */
public record ResourceVector(long millicores, long memoryMilliMb, long gpus) {

    /** The empty vector. */
    public static final ResourceVector ZERO = new ResourceVector(0, 0, 0);

    /** Number of resource types, and the index order used by {@link #get(int)}: millicores, memory, gpus. */
    public static final int TYPES = 3;

    public ResourceVector {
        if (millicores < 0 || memoryMilliMb < 0 || gpus < 0) {
            throw new IllegalArgumentException("resource amounts must be >= 0, got millicores=" + millicores
                    + " memoryMilliMb=" + memoryMilliMb + " gpus=" + gpus);
        }
    }

    /** A vector from whole vcores (converted to millicores), memory in whole MB and GPUs. */
    public static ResourceVector of(long vcores, long memoryMb, long gpus) {
        return ofMillicores(Math.multiplyExact(vcores, 1000L), memoryMb, gpus);
    }

    /** A vector from millicores, memory in whole MB (converted to thousandths) and GPUs. */
    public static ResourceVector ofMillicores(long millicores, long memoryMb, long gpus) {
        return new ResourceVector(millicores, MemoryUnits.fromWholeMb(memoryMb), gpus);
    }

    /**
     * The amount of type {@code index} in the ledger's units (0 millicores, 1 thousandths of a MB, 2 gpus).
     */
    public long get(int index) {
        return switch (index) {
            case 0 -> millicores;
            case 1 -> memoryMilliMb;
            case 2 -> gpus;
            default -> throw new IllegalArgumentException("resource index must be 0..2, got " + index);
        };
    }

    /** Component-wise sum; throws {@link ArithmeticException} on overflow. */
    public ResourceVector plus(ResourceVector other) {
        return new ResourceVector(Math.addExact(millicores, other.millicores),
                Math.addExact(memoryMilliMb, other.memoryMilliMb), Math.addExact(gpus, other.gpus));
    }

    /** True when every component is 0. */
    public boolean isZero() {
        return millicores == 0 && memoryMilliMb == 0 && gpus == 0;
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
