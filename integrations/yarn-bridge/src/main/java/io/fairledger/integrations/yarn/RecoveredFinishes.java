package io.fairledger.integrations.yarn;

import java.util.ArrayList;
import java.util.List;

import org.apache.hadoop.yarn.server.resourcemanager.RMContext;
import org.apache.hadoop.yarn.server.resourcemanager.ahs.RMApplicationHistoryWriter;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMApp;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.RMAppState;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttempt;
import org.apache.hadoop.yarn.server.resourcemanager.rmapp.attempt.RMAppAttemptState;
import org.apache.hadoop.yarn.server.resourcemanager.rmcontainer.RMContainer;

/**
 * The containers a ResourceManager finishes while it recovers a NodeManager's containers: those that completed while
 * no ResourceManager was active. YARN makes each a container record, finishes it at that instant and charges its
 * application up to it, but never hands it to the scheduler: only the ResourceManager's history writer hears of it.
 * So the history writer is wrapped (every call still reaches it), and during {@link #during} the records it is told
 * of on the recovering thread are collected, with the finish time YARN charged.
 */
final class RecoveredFinishes extends RMApplicationHistoryWriter {

    private static final ThreadLocal<List<RMContainer>> RECOVERING = new ThreadLocal<>();

    private final RMApplicationHistoryWriter writer;

    private RecoveredFinishes(RMApplicationHistoryWriter writer) {
        this.writer = writer;
    }

    /** Runs {@code recovery} on this thread; returns the container records it finished, in order. */
    static List<RMContainer> during(RMContext context, Runnable recovery) {
        RMApplicationHistoryWriter writer = context.getRMApplicationHistoryWriter();
        if (writer != null && !(writer instanceof RecoveredFinishes)) {
            // the ResourceManager sets its writer after the scheduler's start, so wrapped at the first recovery
            context.setRMApplicationHistoryWriter(new RecoveredFinishes(writer));
        }
        List<RMContainer> finished = new ArrayList<>();
        RECOVERING.set(finished);
        try {
            recovery.run();
        } finally {
            RECOVERING.remove();
        }
        return finished;
    }

    @Override
    public void containerFinished(RMContainer container) {
        writer.containerFinished(container);
        List<RMContainer> finished = RECOVERING.get();
        if (finished != null) {
            finished.add(container);
        }
    }

    @Override
    public void containerStarted(RMContainer container) {
        writer.containerStarted(container);
    }

    @Override
    public void applicationStarted(RMApp app) {
        writer.applicationStarted(app);
    }

    @Override
    public void applicationFinished(RMApp app, RMAppState finalState) {
        writer.applicationFinished(app, finalState);
    }

    @Override
    public void applicationAttemptStarted(RMAppAttempt appAttempt) {
        writer.applicationAttemptStarted(appAttempt);
    }

    @Override
    public void applicationAttemptFinished(RMAppAttempt appAttempt, RMAppAttemptState finalState) {
        writer.applicationAttemptFinished(appAttempt, finalState);
    }
}
