package io.fairledger.ingest.schema;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * The members of a flat JSON object (every member a string, number, boolean or null), read in one pass of a streaming
 * parser: the common case of the plain JSON encoding, without the cost of a tree (a map per object, a deserialiser
 * context per record). Each member's value is the node Jackson's tree would hold for it, so
 * {@link JsonRecordReader} reads the same values either way.
 * <p>
 * {@link #read} gives null for anything else: not JSON, a duplicate member (found here: a parser's duplicate detector
 * cost a tenth of the consumer thread; the tree's parser detects them),
 * a nested object or array, an integer beyond 64 bits, trailing tokens, more than {@value #MAX_MEMBERS} members. The
 * decoder then goes the tree's way, which accepts or rejects exactly as before; the fast path only ever shortens the
 * way to the same event.
 */
final class FlatJson {

    /** More members than this take the tree's way. */
    static final int MAX_MEMBERS = 32;

    private final String[] names = new String[MAX_MEMBERS];
    private final JsonNode[] values = new JsonNode[MAX_MEMBERS];
    private int size;

    private FlatJson() {
    }

    /** The members of {@code value}, or null when it is not a flat JSON object (see the class comment). */
    static FlatJson read(JsonFactory factory, byte[] value) {
        try (JsonParser parser = factory.createParser(value)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return null;
            }
            FlatJson members = new FlatJson();
            for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                JsonNode member = scalar(parser, parser.nextToken());
                if (member == null || members.size == MAX_MEMBERS || members.get(name) != null) {
                    return null;
                }
                members.names[members.size] = name;
                members.values[members.size++] = member;
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                return null;
            }
            return members;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The member called {@code name}, or null when there is none. */
    JsonNode get(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** The node Jackson's tree deserialiser builds for a scalar token (its defaults), or null for anything else. */
    private static JsonNode scalar(JsonParser parser, JsonToken token) throws IOException {
        if (token == null) {
            return null;
        }
        return switch (token) {
            case VALUE_STRING -> TextNode.valueOf(parser.getText());
            case VALUE_NUMBER_INT -> switch (parser.getNumberType()) {
                case INT -> IntNode.valueOf(parser.getIntValue());
                case LONG -> LongNode.valueOf(parser.getLongValue());
                default -> null;
            };
            case VALUE_NUMBER_FLOAT -> DoubleNode.valueOf(parser.getDoubleValue());
            case VALUE_TRUE -> BooleanNode.TRUE;
            case VALUE_FALSE -> BooleanNode.FALSE;
            case VALUE_NULL -> NullNode.instance;
            default -> null;
        };
    }
}
