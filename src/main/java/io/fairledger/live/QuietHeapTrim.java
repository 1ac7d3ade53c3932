package io.fairledger.live;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryUsage;

import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.quarkus.scheduler.Scheduled;
import org.jboss.logging.Logger;

import io.fairledger.config.FairledgerConfig;

/**
 * Gives the heap that a burst of facts grew back to the system once the burst is over: when nothing has been stored
 * for {@code fairledger.memory.trim-after} after something was, and the live ledgers have applied it, one full
 * collection ({@link System#gc}), which compacts the heap and shrinks it to the JVM's {@code MaxHeapFreeRatio} (40%
 * under {@code ./fairledger serve}); at most once a minute ({@link HeapTrimSchedule}). Without it G1 gives the heap
 * back only at the end of a concurrent cycle, which on an idle server may come minutes later, and then only the
 * regions marking found empty (docs/configuration.md, "Memory"). The pause is about a millisecond per megabyte of live
 * heap. No trim runs while the committed heap is no larger than the last one left it; what the trims give back is
 * logged at most once every ten minutes ({@link HeapTrimSchedule}), and each trim is counted by the JVM's own metrics
 * ({@code jvm_gc_pause_seconds_count{cause="System.gc()"}}).
 */
@ApplicationScoped
public class QuietHeapTrim {

    private static final Logger LOG = Logger.getLogger(QuietHeapTrim.class);
    private static final long MB = 1 << 20;

    @Inject
    LiveLedgers ledgers;

    @Inject
    FairledgerConfig config;

    /** Null when {@code fairledger.memory.trim-after} is 0: never trims. */
    private HeapTrimSchedule schedule;

    @PostConstruct
    void init() {
        long quietNs = config.memory().trimAfter().toNanos();
        schedule = quietNs > 0 ? new HeapTrimSchedule(quietNs, System.nanoTime()) : null;
    }

    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void check() {
        if (schedule != null && schedule.due(ledgers.stores(), ledgers.ticking(), System.nanoTime())) {
            trim();
        }
    }

    private void trim() {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long committed = memory.getHeapMemoryUsage().getCommitted();
        if (!schedule.mayGiveBack(committed)) {
            return;
        }
        System.gc();
        MemoryUsage after = memory.getHeapMemoryUsage();
        HeapTrimSchedule.Report report = schedule.trimmed(committed, after.getCommitted(), after.getUsed(),
                System.nanoTime());
        if (report != null) {
            LOG.infof("heap trimmed after bursts of facts: %d MB given back by %d trim%s; now %d MB committed, %d MB "
                    + "in use", report.givenBackBytes() / MB, report.trims(), report.trims() == 1 ? "" : "s",
                    report.committedBytes() / MB, report.usedBytes() / MB);
        }
    }
}
