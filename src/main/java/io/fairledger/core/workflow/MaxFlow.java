package io.fairledger.core.workflow;

import java.util.Arrays;

/** Dinic's maximum flow with long capacities on a graph built once; capacities may be changed between runs. */
final class MaxFlow {

    private final int nodes;
    private int[] head;
    private int[] next = new int[16];
    private int[] to = new int[16];
    private long[] capacity = new long[16];
    private long[] flow = new long[16];
    private int edges;
    private final int[] level;
    private final int[] cursor;
    private final int[] queue;

    MaxFlow(int nodes) {
        this.nodes = nodes;
        this.head = new int[nodes];
        Arrays.fill(head, -1);
        this.level = new int[nodes];
        this.cursor = new int[nodes];
        this.queue = new int[nodes];
    }

    /** Adds edge {@code from -> to} and its residual twin; returns the edge id. */
    int addEdge(int from, int toNode, long cap) {
        if (edges + 2 > to.length) {
            int size = to.length * 2;
            next = Arrays.copyOf(next, size);
            to = Arrays.copyOf(to, size);
            capacity = Arrays.copyOf(capacity, size);
            flow = Arrays.copyOf(flow, size);
        }
        int id = edges;
        link(from, toNode, cap);
        link(toNode, from, 0);
        return id;
    }

    private void link(int from, int toNode, long cap) {
        to[edges] = toNode;
        capacity[edges] = cap;
        next[edges] = head[from];
        head[from] = edges++;
    }

    void setCapacity(int edge, long cap) {
        capacity[edge] = cap;
    }

    long flow(int edge) {
        return flow[edge];
    }

    long capacity(int edge) {
        return capacity[edge];
    }

    /** Maximum flow from {@code source} to {@code sink}, starting from zero flow. */
    long run(int source, int sink) {
        Arrays.fill(flow, 0, edges, 0);
        return augment(source, sink);
    }

    /** Changes the flow on {@code edge} by {@code delta}, and its twin by the opposite. */
    void addFlow(int edge, long delta) {
        flow[edge] += delta;
        flow[edge ^ 1] -= delta;
    }

    /** Augments the current flow to a maximum one; returns the flow added. */
    long augment(int source, int sink) {
        long total = 0;
        while (bfs(source, sink)) {
            System.arraycopy(head, 0, cursor, 0, nodes);
            long pushed;
            while ((pushed = dfs(source, sink, Long.MAX_VALUE)) > 0) {
                total += pushed;
            }
        }
        return total;
    }

    private boolean bfs(int source, int sink) {
        Arrays.fill(level, -1);
        int first = 0;
        int last = 0;
        queue[last++] = source;
        level[source] = 0;
        while (first < last) {
            int node = queue[first++];
            for (int e = head[node]; e >= 0; e = next[e]) {
                if (level[to[e]] < 0 && flow[e] < capacity[e]) {
                    level[to[e]] = level[node] + 1;
                    queue[last++] = to[e];
                }
            }
        }
        return level[sink] >= 0;
    }

    private long dfs(int node, int sink, long limit) {
        if (node == sink) {
            return limit;
        }
        for (; cursor[node] >= 0; cursor[node] = next[cursor[node]]) {
            int e = cursor[node];
            if (level[to[e]] == level[node] + 1 && flow[e] < capacity[e]) {
                long pushed = dfs(to[e], sink, Math.min(limit, capacity[e] - flow[e]));
                if (pushed > 0) {
                    flow[e] += pushed;
                    flow[e ^ 1] -= pushed;
                    return pushed;
                }
            }
        }
        return 0;
    }
}
