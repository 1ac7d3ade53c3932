package io.fairledger.ingest.schema;

import java.util.List;

/**
 * A schema registry, asked for the writer schema of a registry-framed record by its id ({@link RegistryFrame}). The
 * decoder caches its answers ({@link RegistryWriters}); an implementation only asks.
 */
public interface SchemaRegistry {

    /**
     * The registry's answer for one id.
     *
     * @param schema     the schema text registered under the id, or null when there is none
     * @param references the texts of the schemas it references by name, directly or not, each after those it
     *                   references (Apicurio's serializers register a record's enums so)
     * @param missing    why there is none (for the dead-letter reason), or null when there is one
     */
    record Answer(String schema, List<String> references, String missing) {

        /** The id has this schema text, referencing no other schema. */
        public static Answer found(String schema) {
            return found(schema, List.of());
        }

        /** The id has this schema text, which references these. */
        public static Answer found(String schema, List<String> references) {
            return new Answer(schema, List.copyOf(references), null);
        }

        /** The registry has no schema of this id, for the reason given. */
        public static Answer unknown(String why) {
            return new Answer(null, List.of(), why);
        }
    }

    /**
     * Asks the registry for the schema of {@code id}.
     *
     * @throws RegistryUnavailableException when the registry cannot be asked (after the implementation's retries), so
     *                                      the record must be read again later rather than dead-lettered
     */
    Answer lookup(RegistryFrame.IdKind kind, long id);
}
