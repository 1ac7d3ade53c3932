package io.fairledger.live;

import java.lang.management.ManagementFactory;

/**
 * The bytes the current thread has allocated so far, from the JVM's own count (HotSpot's
 * {@code com.sun.management.ThreadMXBean}), or 0 where the JVM does not count them: what the live tick's allocation
 * counter ({@code fairledger_live_tick_allocated_bytes_total}) adds up.
 */
final class ThreadAllocation {

    private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final boolean COUNTED = THREADS instanceof com.sun.management.ThreadMXBean hotspot
            && hotspot.isThreadAllocatedMemorySupported() && hotspot.isThreadAllocatedMemoryEnabled();

    private ThreadAllocation() {
    }

    /** The current thread's allocated bytes so far; 0 where not counted. */
    static long bytes() {
        return COUNTED ? ((com.sun.management.ThreadMXBean) THREADS).getCurrentThreadAllocatedBytes() : 0;
    }
}
