package io.fairledger.ingest;

import java.math.BigDecimal;
import java.time.Instant;

import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.ingest.schema.Identifiers;
import io.fairledger.tenancy.ResourceManagerKind;

/**
 * A registration record on {@link EventTopics#REGISTRATIONS} (kafka-schemas/README.md, "Registrations"), for example
 * <pre>
 * {"type":"ClusterRegistered","eventId":"e1","cluster":"prod-yarn","eventTime":"2026-11-22T10:00:00Z",
 *  "resourceManager":"YARN","name":"Production YARN"}
 * {"type":"TenantRegistered","eventId":"e2","cluster":"prod-yarn","eventTime":"2026-11-22T10:00:01Z",
 *  "tenant":"root.analytics","weight":2,"discountRateOverride":0.5}
 * </pre>
 */
public record RegistrationEvent(Type type, String eventId, String cluster, Instant eventTime,
        ResourceManagerKind resourceManager, String name, String tenant, BigDecimal weight,
        BigDecimal discountRateOverride) {

    public enum Type {
        ClusterRegistered, TenantRegistered
    }

    /**
     * What is missing or wrong, or null when the event can be applied. Its ids and name follow the events' rule
     * ({@link Identifiers}), so text PostgreSQL cannot store (NUL) or that would rewrite a terminal never reaches the
     * database.
     */
    public String problem() {
        if (type == null) {
            return "type is required: ClusterRegistered or TenantRegistered";
        }
        if (eventId == null || eventId.isBlank()) {
            return "eventId is required";
        }
        if (cluster == null || cluster.isBlank()) {
            return "cluster is required";
        }
        if (eventTime == null) {
            return "eventTime is required (ISO-8601 instant)";
        }
        String text = textProblem();
        if (text != null) {
            return text;
        }
        if (type == Type.ClusterRegistered && resourceManager == null) {
            return "resourceManager is required for ClusterRegistered: YARN or MESOS";
        }
        if (type == Type.TenantRegistered) {
            if (tenant == null || tenant.isBlank()) {
                return "tenant is required for TenantRegistered";
            }
            if (weight != null && weight.signum() < 0) {
                return "weight must be >= 0, got " + weight;
            }
            if (discountRateOverride != null
                    && (discountRateOverride.signum() < 0 || discountRateOverride.compareTo(BigDecimal.ONE) > 0)) {
                return "discountRateOverride must be between 0 and 1, got " + discountRateOverride;
            }
        }
        return null;
    }

    private String textProblem() {
        String[][] fields = {{"eventId", eventId}, {"cluster", cluster}, {"name", name}, {"tenant", tenant}};
        for (String[] field : fields) {
            String problem = field[1] == null ? null : Identifiers.problem(field[1]);
            if (problem != null) {
                return field[0] + " " + problem;
            }
        }
        return null;
    }
}
