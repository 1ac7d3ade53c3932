package io.fairledger.integrations.bridgetests;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.fairledger.testsupport.RealDependency;

/** The facts fairledger stored for a cluster (table {@code ledger_fact}), read back as tasks with their intervals. */
final class LedgerFacts {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One task as the books have it: started (with its tenant and size) and, once finished, its finish time. */
    record Task(String id, String tenant, String application, long millicores, long memoryMb, long gpus, long start,
            Long finish) {

        Task finishedAt(long at) {
            return new Task(id, tenant, application, millicores, memoryMb, gpus, start, at);
        }
    }

    private LedgerFacts() {
    }

    /** The node capacity facts of a cluster as {@code "node millicores/memoryMb@at"}. */
    static List<String> nodes(RealDependency.Running postgres, String cluster) throws SQLException {
        List<String> nodes = new ArrayList<>();
        try (Connection db = connect(postgres);
                PreparedStatement st = db.prepareStatement("SELECT event_time_ms, fact FROM ledger_fact "
                        + "WHERE cluster_id = ? AND kind = 'NodeCapacity' ORDER BY event_time_ms")) {
            st.setString(1, cluster);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    JsonNode fact = JSON.readTree(rs.getString(2));
                    nodes.add(fact.get("node").asText() + " " + fact.get("millicores").asLong() + "/"
                            + fact.get("memoryMb").asLong() + "@" + rs.getLong(1));
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return nodes;
    }

    private static Connection connect(RealDependency.Running postgres) throws SQLException {
        return DriverManager.getConnection(postgres.config().get("quarkus.datasource.jdbc.url"),
                postgres.config().get("quarkus.datasource.username"),
                postgres.config().get("quarkus.datasource.password"));
    }

    /** Every task of the cluster by task id, and the number of facts of each kind. */
    static Map<String, Task> tasks(RealDependency.Running postgres, String cluster, Map<String, Integer> kinds)
            throws SQLException {
        Map<String, Task> tasks = new HashMap<>();
        List<String[]> finishes = new ArrayList<>();
        try (Connection db = connect(postgres);
                PreparedStatement st = db.prepareStatement(
                        "SELECT kind, event_time_ms, fact FROM ledger_fact WHERE cluster_id = ?")) {
            st.setString(1, cluster);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    String kind = rs.getString(1);
                    kinds.merge(kind, 1, Integer::sum);
                    JsonNode fact = JSON.readTree(rs.getString(3));
                    if (kind.equals("TaskStarted")) {
                        String id = fact.get("task").asText();
                        tasks.put(id, new Task(id, fact.get("tenant").asText(), fact.get("application").asText(),
                                fact.get("millicores").asLong(), fact.get("memoryMb").asLong(),
                                fact.get("gpus").asLong(), rs.getLong(2), null));
                    } else if (kind.equals("TaskFinished")) {
                        finishes.add(new String[]{fact.get("task").asText(), Long.toString(rs.getLong(2))});
                    }
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        for (String[] f : finishes) {
            Task started = tasks.get(f[0]);
            if (started == null) {
                throw new AssertionError("a finish without a start: " + f[0]);
            }
            tasks.put(f[0], started.finishedAt(Long.parseLong(f[1])));
        }
        return tasks;
    }
}
