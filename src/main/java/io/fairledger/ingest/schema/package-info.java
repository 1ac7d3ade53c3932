/**
 * The event schemas' Java side: the event records, decoding of Avro (single-object or framed by a registry's
 * serializer) and plain JSON into validated events or rejections with reasons, encoding, and the topic and header
 * names.
 */
package io.fairledger.ingest.schema;
