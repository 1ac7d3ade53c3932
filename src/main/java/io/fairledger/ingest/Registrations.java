package io.fairledger.ingest;

import java.io.IOException;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import io.fairledger.errors.DomainException;
import io.fairledger.ingest.schema.EventTopics;
import io.fairledger.tenancy.ConfigurationChanges;

/**
 * Applies a record of {@link EventTopics#REGISTRATIONS} through {@link ConfigurationChanges}, the service the admin API
 * calls too, so a registration from Kafka is validated, closes closable periods and is audited exactly as the same
 * change over REST.
 */
@ApplicationScoped
public class Registrations {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Inject
    ConfigurationChanges changes;

    /**
     * Decodes and applies one registration record.
     *
     * @return null when applied, else the dead-letter reason, starting with its code ({@code undecodable},
     *         {@code invalid} or {@code rejected}) and a colon
     */
    public String apply(byte[] value) {
        RegistrationEvent event;
        try {
            event = JSON.readValue(value, RegistrationEvent.class);
        } catch (IOException | RuntimeException e) {
            return "undecodable: " + firstLine(e.getMessage());
        }
        String problem = event.problem();
        if (problem != null) {
            return "invalid: " + problem;
        }
        try {
            switch (event.type()) {
                case ClusterRegistered -> changes.ensureCluster(event.cluster(), event.name(),
                        event.resourceManager());
                case TenantRegistered -> changes.putTenant(event.cluster(), event.tenant(), event.weight(),
                        event.discountRateOverride());
            }
            return null;
        } catch (DomainException e) {
            return "rejected: " + e.getMessage();
        }
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "no detail";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }
}
