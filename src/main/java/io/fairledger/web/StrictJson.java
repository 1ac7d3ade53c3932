package io.fairledger.web;

import java.io.IOException;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.std.NumberDeserializers;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.quarkus.jackson.ObjectMapperCustomizer;

import io.fairledger.core.model.PlainText;

/**
 * Request bodies are read strictly, so a mistake is reported instead of silently changing what is stored: a member
 * given twice (instead of the last one winning), {@code "NaN"} or {@code "Infinity"} as a number, null for a primitive, text after the document, and a
 * string that is not plain text (U+0000, which PostgreSQL cannot store, another control character or an unpaired
 * surrogate: {@link PlainText}) are all rejected. Unknown members are rejected by
 * {@code quarkus.jackson.fail-on-unknown-properties=true}. {@link JsonProblemMappers} turns each rejection into a
 * problem naming the member.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(DeserializationFeature.FAIL_ON_NUMBERS_FOR_ENUMS);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        SimpleModule strict = new SimpleModule("fairledger-strict-json");
        strict.addDeserializer(String.class, new PlainStrings());
        strict.addDeserializer(Double.class, new FiniteDouble(Double.class, null));
        strict.addDeserializer(double.class, new FiniteDouble(double.class, 0.0));
        mapper.registerModule(strict);
    }

    /**
     * Strings as usual, but only plain text ({@link PlainText}: no U+0000, which PostgreSQL text cannot hold, no other
     * control character, no unpaired surrogate): refused, never altered.
     */
    static final class PlainStrings extends StringDeserializer {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String value = super.deserialize(p, ctxt);
            String problem = PlainText.problem(value);
            if (problem != null) {
                throw ctxt.weirdStringException(value, String.class, "contains " + problem);
            }
            return value;
        }
    }

    /** Doubles as usual, but only finite ones: {@code "NaN"} and {@code "Infinity"} are not quantities. */
    static final class FiniteDouble extends NumberDeserializers.DoubleDeserializer {
        FiniteDouble(Class<Double> type, Double nullValue) {
            super(type, nullValue);
        }

        @Override
        public Double deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            Double value = super.deserialize(p, ctxt);
            if (value != null && !Double.isFinite(value)) {
                throw ctxt.weirdStringException(p.getText(), Double.class, "must be a finite number");
            }
            return value;
        }
    }
}
