package io.fairledger.integrations.mesos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Subscribes to a Mesos master's v1 operator API ({@code POST /api/v1}, {@code SUBSCRIBE}) and publishes every task
 * status and agent change to fairledger. The stream is RecordIO framed JSON. Each subscription starts with a
 * {@code SUBSCRIBED} snapshot of all tasks (with their status history) and agents, which the bridge publishes whole:
 * what happened while it was disconnected (a task that finished, an agent that left) is in it, and what it had already
 * published carries the same event ids and is deduplicated by fairledger. A 307 from a master that is not the leader
 * is followed to the {@code Location}; a stream that ends, breaks or stays silent longer than the heartbeat timeout is
 * dropped and a new subscription made, to the next master in the list when one fails.
 */
public final class MesosBridge implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MesosBridge.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_REDIRECTS = 5;
    private static final int MAX_TASKS = 200_000;

    /** Which masters, which cluster, how long silence may last, how long to wait before resubscribing. */
    public record Settings(List<URI> masters, String cluster, Duration heartbeatTimeout, Duration reconnectDelay) {

        /** The ids fairledger registers (its {@code ConfigurationChanges.CLUSTER_ID_PATTERN}); it goes into URLs. */
        static final String CLUSTER_ID_PATTERN = "[a-z0-9][a-z0-9-]{0,62}";

        /** @throws IllegalArgumentException for a cluster id fairledger would not register, saying what it accepts */
        public Settings {
            if (cluster == null || !cluster.matches(CLUSTER_ID_PATTERN)) {
                throw new IllegalArgumentException("--cluster is '" + cluster + "': fairledger's cluster ids are 1 to "
                        + "63 lower-case letters, digits and '-', starting with a letter or digit");
            }
        }
    }

    private final Settings settings;
    private final EventSink sink;
    private final Map<String, MesosEvents.TaskInfo> tasks = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, MesosEvents.TaskInfo> eldest) {
            return size() > MAX_TASKS;
        }
    };
    private final Set<String> agents = new HashSet<>();
    private final AtomicLong subscriptions = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private volatile boolean running = true;
    private volatile HttpURLConnection current;
    private Thread thread;

    public MesosBridge(Settings settings, EventSink sink) {
        this.settings = settings;
        this.sink = sink;
    }

    /** Runs the subscription loop in a thread of its own. */
    public MesosBridge start() {
        thread = new Thread(this::run, "fairledger-mesos-bridge");
        thread.start();
        return this;
    }

    /** Subscriptions that received their SUBSCRIBED snapshot so far. */
    public long subscriptions() {
        return subscriptions.get();
    }

    /** Events published (a snapshot republishes what it contains). */
    public long published() {
        return published.get();
    }

    void run() {
        int master = 0;
        while (running) {
            URI uri = settings.masters().get(master);
            try {
                subscribe(uri);
                LOG.warn("Mesos master {} closed the event stream; resubscribing", uri);
            } catch (IOException | RuntimeException e) {
                if (!running) {
                    return;
                }
                LOG.warn("subscription to Mesos master {} failed: {}; resubscribing in {}", uri, e.toString(),
                        settings.reconnectDelay());
                master = (master + 1) % settings.masters().size();
            }
            try {
                Thread.sleep(settings.reconnectDelay().toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void subscribe(URI master) throws IOException {
        URI target = master.resolve("/api/v1");
        for (int redirects = 0;; redirects++) {
            HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
            current = connection;
            connection.setInstanceFollowRedirects(false);
            connection.setConnectTimeout(10_000);
            connection.setReadTimeout((int) settings.heartbeatTimeout().toMillis());
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            connection.setRequestProperty("Content-Type", "application/json");
            connection.setRequestProperty("Accept", "application/json");
            try (OutputStream out = connection.getOutputStream()) {
                out.write("{\"type\":\"SUBSCRIBE\"}".getBytes(StandardCharsets.UTF_8));
            }
            int status = connection.getResponseCode();
            if (status == 307 || status == 302 || status == 301) {
                String location = connection.getHeaderField("Location");
                connection.disconnect();
                if (location == null || redirects >= MAX_REDIRECTS) {
                    throw new IOException("master " + target + " redirected " + (location == null
                            ? "without a Location"
                            : "more than " + MAX_REDIRECTS + " times"));
                }
                URI next = target.resolve(location);
                LOG.info("Mesos master {} is not the leader; following the redirect to {}", target, next);
                target = next.getPath() == null || next.getPath().isEmpty() ? next.resolve("/api/v1") : next;
                continue;
            }
            if (status != 200) {
                connection.disconnect();
                throw new IOException("master " + target + " answered SUBSCRIBE with HTTP " + status);
            }
            try (InputStream in = connection.getInputStream()) {
                read(new RecordIoReader(in));
            } finally {
                connection.disconnect();
            }
            return;
        }
    }

    private void read(RecordIoReader reader) throws IOException {
        for (byte[] record; (record = reader.next()) != null;) {
            JsonNode event = JSON.readTree(record);
            switch (event.path("type").asText()) {
                case "SUBSCRIBED" -> {
                    reconcile(event.path("subscribed").path("get_state"));
                    subscriptions.incrementAndGet();
                }
                case "TASK_ADDED" -> addTask(event.path("task_added").path("task"));
                case "TASK_UPDATED" -> updateTask(event.path("task_updated"));
                case "AGENT_ADDED" -> addAgent(event.path("agent_added").path("agent"));
                case "AGENT_REMOVED" -> {
                    String id = event.path("agent_removed").path("agent_id").path("value").asText();
                    agents.remove(id);
                    publish(MesosEvents.CAPACITY, MesosEvents.agentRemoved(settings.cluster(), id,
                            System.currentTimeMillis()));
                }
                default -> {
                    // HEARTBEAT (its arrival resets the read timeout), framework events: nothing to account
                }
            }
        }
    }

    /** The snapshot: every task with its status history, every agent; agents gone since are removed. */
    private void reconcile(JsonNode state) {
        JsonNode taskState = state.path("get_tasks");
        for (String list : List.of("tasks", "completed_tasks", "unreachable_tasks", "orphan_tasks")) {
            for (JsonNode task : taskState.path(list)) {
                addTask(task);
            }
        }
        Set<String> present = new HashSet<>();
        for (JsonNode agent : state.path("get_agents").path("agents")) {
            present.add(addAgent(agent));
        }
        long now = System.currentTimeMillis();
        for (String gone : new HashSet<>(agents)) {
            if (!present.contains(gone)) {
                agents.remove(gone);
                publish(MesosEvents.CAPACITY, MesosEvents.agentRemoved(settings.cluster(), gone, now));
            }
        }
    }

    private void addTask(JsonNode task) {
        MesosEvents.TaskInfo info = MesosEvents.TaskInfo.of(task);
        tasks.put(info.frameworkId() + "/" + info.taskId(), info);
        for (JsonNode status : task.path("statuses")) {
            publishStatus(info, status);
        }
    }

    private void updateTask(JsonNode update) throws IOException {
        JsonNode status = update.path("status");
        String taskId = status.path("task_id").path("value").asText(update.path("task_id").path("value").asText());
        String key = update.path("framework_id").path("value").asText() + "/" + taskId;
        MesosEvents.TaskInfo info = tasks.get(key);
        if (info == null || status.isMissingNode()) {
            // a task the bridge never saw added, or a status without time: the next snapshot has it whole
            throw new IOException("TASK_UPDATED for " + key + " cannot be published as it is; resubscribing");
        }
        publishStatus(info, status);
    }

    private String addAgent(JsonNode agent) {
        String id = agent.path("agent_info").path("id").path("value").asText();
        agents.add(id);
        publish(MesosEvents.CAPACITY, MesosEvents.agentAdded(settings.cluster(), agent));
        return id;
    }

    private void publishStatus(MesosEvents.TaskInfo info, JsonNode status) {
        String json = MesosEvents.taskStatus(settings.cluster(), info, status);
        if (json == null) {
            LOG.warn("Mesos status of task {} without a timestamp: not published", info.taskId());
            return;
        }
        publish(MesosEvents.TASKS, json);
    }

    private void publish(String topic, String json) {
        sink.publish(topic, settings.cluster(), json);
        published.incrementAndGet();
    }

    @Override
    public void close() {
        running = false;
        HttpURLConnection connection = current;
        if (connection != null) {
            connection.disconnect();
        }
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(30_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        sink.close();
    }
}
