package io.fairledger.ingest.schema;

/**
 * A schema registry, asked for the writer schema of a registry-framed record by its id ({@link RegistryFrame}). The
 * decoder caches its answers ({@link RegistryWriters}); an implementation only asks.
 */
public interface SchemaRegistry {

    /**
     * The registry's answer for one id.
     *
     * @param schema  the schema text registered under the id, or null when there is none
     * @param missing why there is none (for the dead-letter reason), or null when there is one
     */
    record Answer(String schema, String missing) {

        /** The id has this schema text. */
        public static Answer found(String schema) {
            return new Answer(schema, null);
        }

        /** The registry has no schema of this id, for the reason given. */
        public static Answer unknown(String why) {
            return new Answer(null, why);
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
