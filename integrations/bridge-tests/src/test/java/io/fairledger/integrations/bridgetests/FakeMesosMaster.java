package io.fairledger.integrations.bridgetests;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A Mesos master's v1 operator API as far as {@code SUBSCRIBE} goes, with the exact framing (RecordIO over a chunked
 * 200 response) and messages (shaped like Mesos's own: {@code SUBSCRIBED} with {@code get_state}, {@code TASK_ADDED},
 * {@code TASK_UPDATED} with a {@code TaskStatus}, {@code AGENT_ADDED}, {@code AGENT_REMOVED}, {@code HEARTBEAT}). It
 * keeps the cluster's state, so every new subscription gets a true snapshot; the test decides what each open stream
 * sends, breaks or withholds. {@link #notLeader} answers like a standby master: 307 to the leader.
 */
final class FakeMesosMaster implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TERMINAL = Set.of("TASK_FINISHED", "TASK_FAILED", "TASK_KILLED", "TASK_LOST",
            "TASK_ERROR", "TASK_DROPPED", "TASK_GONE");

    /** One subscriber's open stream. */
    final class Stream {
        private final BlockingQueue<byte[]> out = new LinkedBlockingQueue<>();
        private volatile boolean closed;

        /** Applies an event to the master's state and sends it on this stream. */
        void send(ObjectNode event) {
            apply(event);
            out.add(record(event));
        }

        void heartbeat() {
            out.add(record(JSON.createObjectNode().put("type", "HEARTBEAT")));
        }

        /** Sends the first half of a record, then drops the connection: a break in the middle of the stream. */
        void breakMidRecord(ObjectNode event) {
            byte[] whole = record(event);
            out.add(java.util.Arrays.copyOf(whole, whole.length / 2));
            out.add(new byte[0]);
        }

        boolean closed() {
            return closed;
        }
    }

    private final HttpServer leader;
    private final HttpServer standby;
    private final Map<String, ObjectNode> tasks = new LinkedHashMap<>();
    private final Map<String, ObjectNode> agents = new LinkedHashMap<>();
    private final BlockingQueue<Stream> subscriptions = new LinkedBlockingQueue<>();
    private final List<Stream> streams = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final BlockingQueue<JsonNode> weightUpdates = new LinkedBlockingQueue<>();
    private int redirects;

    FakeMesosMaster() throws IOException {
        leader = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        leader.createContext("/api/v1", this::subscribe);
        leader.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        leader.start();
        standby = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        standby.createContext("/api/v1", exchange -> {
            exchange.getRequestBody().readAllBytes();
            synchronized (this) {
                redirects++;
            }
            exchange.getResponseHeaders().add("Location", "//127.0.0.1:" + leader.getAddress().getPort()
                    + "/api/v1");
            exchange.sendResponseHeaders(307, -1);
            exchange.close();
        });
        standby.start();
    }

    String notLeader() {
        return "http://127.0.0.1:" + standby.getAddress().getPort();
    }

    /** The next {@code UPDATE_WEIGHTS} call the leader received, as a role to weight map. */
    Map<String, Double> awaitWeightUpdate() throws InterruptedException {
        JsonNode call = weightUpdates.poll(120, TimeUnit.SECONDS);
        if (call == null) {
            throw new AssertionError("no UPDATE_WEIGHTS within 120 s");
        }
        Map<String, Double> weights = new java.util.TreeMap<>();
        for (JsonNode info : call.path("update_weights").path("weight_infos")) {
            weights.put(info.get("role").asText(), info.get("weight").asDouble());
        }
        return weights;
    }

    synchronized int redirects() {
        return redirects;
    }

    /** Changes the state without telling any subscriber: what happens while the bridge is disconnected. */
    synchronized void apply(ObjectNode event) {
        switch (event.get("type").asText()) {
            case "TASK_ADDED" -> {
                ObjectNode task = (ObjectNode) event.get("task_added").get("task");
                tasks.put(key(task.get("framework_id"), task.get("task_id")), task.deepCopy());
            }
            case "TASK_UPDATED" -> {
                JsonNode update = event.get("task_updated");
                ObjectNode task = tasks.get(key(update.get("framework_id"), update.get("status").get("task_id")));
                ((ArrayNode) task.withArray("statuses")).add(update.get("status").deepCopy());
                task.put("state", update.get("status").get("state").asText());
            }
            case "AGENT_ADDED" -> {
                ObjectNode agent = (ObjectNode) event.get("agent_added").get("agent");
                agents.put(agent.get("agent_info").get("id").get("value").asText(), agent.deepCopy());
            }
            case "AGENT_REMOVED" -> agents.remove(event.get("agent_removed").get("agent_id").get("value").asText());
            default -> throw new IllegalArgumentException("not a state change: " + event);
        }
    }

    /** The next subscriber, once its SUBSCRIBED snapshot went out. */
    Stream awaitSubscription() throws InterruptedException {
        Stream stream = subscriptions.poll(120, TimeUnit.SECONDS);
        if (stream == null) {
            throw new AssertionError("the bridge did not subscribe within 120 s");
        }
        return stream;
    }

    private void subscribe(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        if ("POST".equals(exchange.getRequestMethod()) && "UPDATE_WEIGHTS".equals(request.path("type").asText())) {
            // the operator API answers 200 with no body
            weightUpdates.add(request);
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
            return;
        }
        if (!"POST".equals(exchange.getRequestMethod()) || !"SUBSCRIBE".equals(request.path("type").asText())) {
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        Stream stream = new Stream();
        OutputStream body = exchange.getResponseBody();
        try {
            body.write(record(snapshot()));
            body.flush();
            streams.add(stream);
            subscriptions.add(stream);
            while (true) {
                byte[] next = stream.out.take();
                if (next.length == 0) {
                    break;
                }
                body.write(next);
                body.flush();
            }
        } catch (IOException | InterruptedException e) {
            // the subscriber went away
        } finally {
            stream.closed = true;
            exchange.close();
        }
    }

    private synchronized ObjectNode snapshot() {
        ObjectNode event = JSON.createObjectNode().put("type", "SUBSCRIBED");
        ObjectNode subscribed = event.putObject("subscribed");
        ObjectNode state = subscribed.putObject("get_state");
        ObjectNode getTasks = state.putObject("get_tasks");
        ArrayNode running = getTasks.putArray("tasks");
        ArrayNode completed = getTasks.putArray("completed_tasks");
        for (ObjectNode task : tasks.values()) {
            (TERMINAL.contains(task.path("state").asText()) ? completed : running).add(task.deepCopy());
        }
        ArrayNode agentList = state.putObject("get_agents").putArray("agents");
        agents.values().forEach(a -> agentList.add(a.deepCopy()));
        subscribed.put("heartbeat_interval_seconds", 1.0);
        return event;
    }

    private static String key(JsonNode framework, JsonNode task) {
        return framework.get("value").asText() + "/" + task.get("value").asText();
    }

    /** RecordIO: the length in ASCII decimal, a line feed, the JSON bytes. */
    static byte[] record(JsonNode event) {
        byte[] json = event.toString().getBytes(StandardCharsets.UTF_8);
        byte[] head = (json.length + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + json.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(json, 0, out, head.length, json.length);
        return out;
    }

    /** Events as the master emits them. */
    static final class Events {
        private Events() {
        }

        static ObjectNode taskAdded(String framework, String task, String agent, String role, double cpus,
                double mem) {
            ObjectNode event = JSON.createObjectNode().put("type", "TASK_ADDED");
            ObjectNode t = event.putObject("task_added").putObject("task");
            t.put("name", task);
            t.putObject("task_id").put("value", task);
            t.putObject("framework_id").put("value", framework);
            t.putObject("agent_id").put("value", agent);
            t.put("state", "TASK_STAGING");
            ArrayNode resources = t.putArray("resources");
            resources.add(scalar("cpus", cpus, role));
            resources.add(scalar("mem", mem, role));
            t.putObject("allocation_info").put("role", role);
            t.putArray("statuses");
            return event;
        }

        static ObjectNode taskUpdated(String framework, String task, String agent, String state, double timestamp,
                String uuid) {
            ObjectNode event = JSON.createObjectNode().put("type", "TASK_UPDATED");
            ObjectNode update = event.putObject("task_updated");
            update.putObject("framework_id").put("value", framework);
            ObjectNode status = update.putObject("status");
            status.putObject("task_id").put("value", task);
            status.put("state", state);
            status.putObject("agent_id").put("value", agent);
            status.put("source", "SOURCE_EXECUTOR");
            status.put("timestamp", timestamp);
            status.put("uuid", uuid);
            update.put("state", state);
            return event;
        }

        static ObjectNode agentAdded(String id, double cpus, double mem, long registeredNanos) {
            ObjectNode event = JSON.createObjectNode().put("type", "AGENT_ADDED");
            ObjectNode agent = event.putObject("agent_added").putObject("agent");
            agent.put("active", true);
            ObjectNode info = agent.putObject("agent_info");
            info.put("hostname", "127.0.0.1");
            info.putObject("id").put("value", id);
            info.put("port", 5051);
            info.putArray("resources");
            ArrayNode total = agent.putArray("total_resources");
            total.add(scalar("cpus", cpus, "*"));
            total.add(scalar("mem", mem, "*"));
            agent.putObject("registered_time").put("nanoseconds", registeredNanos);
            agent.put("version", "1.11.0");
            return event;
        }

        static ObjectNode agentRemoved(String id) {
            ObjectNode event = JSON.createObjectNode().put("type", "AGENT_REMOVED");
            event.putObject("agent_removed").putObject("agent_id").put("value", id);
            return event;
        }

        private static ObjectNode scalar(String name, double value, String role) {
            ObjectNode r = JSON.createObjectNode().put("name", name).put("type", "SCALAR").put("role", role);
            r.putObject("scalar").put("value", value);
            return r;
        }
    }

    List<String> taskKeys() {
        return new ArrayList<>(tasks.keySet());
    }

    @Override
    public void close() {
        streams.forEach(s -> s.out.add(new byte[0]));
        leader.stop(0);
        standby.stop(0);
    }
}
