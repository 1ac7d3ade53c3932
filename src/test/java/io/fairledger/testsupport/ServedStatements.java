package io.fairledger.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The server's statements as {@code fairledger account} writes them: the server signs what it closes
 * (docs/billing.md, a {@code chain} member on each closed statement), the offline command does not; the rest of
 * the books must be equal.
 */
public final class ServedStatements {

    private ServedStatements() {
    }

    /** {@code statements} (a JSON array) with every statement's {@code chain} member removed. */
    public static JsonNode withoutChain(JsonNode statements) {
        JsonNode copy = statements.deepCopy();
        copy.forEach(statement -> ((ObjectNode) statement).remove("chain"));
        return copy;
    }
}
