package io.fairledger.audit;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.security.identity.SecurityIdentity;

/**
 * Records every administrative change (who, when, before, after, effective from) in the caller's transaction, so a
 * change and its audit entry are committed together or not at all.
 */
@ApplicationScoped
public class AuditTrail {

    @Inject
    SecurityIdentity identity;

    @Inject
    ObjectMapper json;

    /**
     * Records a change made by the current caller.
     *
     * @param clusterId
     *            the cluster concerned, null for a global change
     * @param subject
     *            what changed, e.g. {@code "tenant root.a"} or {@code "ledger-settings"}
     * @param before
     *            the value before (serialised as JSON), null when created
     * @param after
     *            the value after (serialised as JSON), null when removed
     * @param effectiveFrom
     *            the instant from which the change counts
     */
    @Transactional(Transactional.TxType.MANDATORY)
    public void record(String clusterId, String subject, Object before, Object after, Instant effectiveFrom) {
        AuditEntry entry = new AuditEntry();
        entry.actor = identity.isAnonymous() ? "anonymous" : identity.getPrincipal().getName();
        entry.clusterId = clusterId;
        entry.subject = subject;
        entry.before = toJson(before);
        entry.after = toJson(after);
        entry.effectiveFrom = OffsetDateTime.ofInstant(effectiveFrom, ZoneOffset.UTC);
        entry.persist();
    }

    /**
     * One change as the API and the portal show it; {@code before} and {@code after} are the JSON documents as
     * recorded.
     */
    public record Change(long id, OffsetDateTime at, String actor, String cluster, String subject, String before,
            String after, OffsetDateTime effectiveFrom) {
        static Change of(AuditEntry e) {
            return new Change(e.id, e.at, e.actor, e.clusterId, e.subject, e.before, e.after, e.effectiveFrom);
        }
    }

    /** The newest changes first, of one cluster or of all when {@code clusterId} is null. */
    public List<Change> newest(String clusterId, int limit) {
        return newest(clusterId, null, null, null, limit);
    }

    /**
     * The newest changes first, of one cluster or of all when {@code clusterId} is null, recorded in
     * {@code [from, to)} (null: unbounded) and older than change {@code beforeId} (null: from the newest), at most
     * {@code limit}: the ids only grow, so a change is on one page only however many are recorded meanwhile.
     */
    public List<Change> newest(String clusterId, Instant from, Instant to, Long beforeId, int limit) {
        return AuditEntry.newest(clusterId, from, to, beforeId, limit).stream().map(Change::of).toList();
    }

    private String toJson(Object value) {
        if (value == null) {
            return null;
        }
        try {
            return json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise an audit value of " + value.getClass(), e);
        }
    }
}
