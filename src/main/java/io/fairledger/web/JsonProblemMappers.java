package io.fairledger.web;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.stream.Collectors;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import io.fairledger.core.model.PlainText;
import io.fairledger.errors.DomainException;

/**
 * Request bodies Jackson refuses, as problems naming the member ({@code body.memory.mode}, {@code body.jobs[0].id}).
 * The rule (docs/api.md): 400 when the body cannot be read as the request's shape (not JSON, a member given twice, a
 * value of the wrong JSON type such as an array for an object or {@code "NaN"} for a number); 422 when it can be
 * read but is not acceptable (an unknown member, a value outside an enumeration, U+0000 in a string, a value out
 * of range).
 */
public final class JsonProblemMappers {

    private static final java.util.regex.Pattern DUPLICATE = java.util.regex.Pattern.compile("Duplicate field '(.*)'");

    /**
     * Jackson's mapping failures. Quarkus has its own mapper for {@link MismatchedInputException} (a JSON body without
     * the problem format), so the subtypes are listed to be the nearest match; other parse and mapping failures arrive
     * wrapped in a 400 {@code WebApplicationException} and come here through {@link #of}.
     */
    @ServerExceptionMapper({MismatchedInputException.class, InvalidFormatException.class,
            UnrecognizedPropertyException.class, ValueInstantiationException.class, StreamReadException.class})
    public Response rejected(JsonProcessingException e, UriInfo uri) {
        return of(e, uri);
    }

    /** The problem for a body Jackson refused. */
    static Response of(JsonProcessingException e, UriInfo uri) {
        if (e instanceof StreamReadException read) {
            return unreadable(read, uri);
        }
        if (e.getCause() instanceof StreamReadException read) {
            return unreadable(read, uri);
        }
        if (e instanceof JsonMappingException mapping) {
            return unmapped(mapping, uri);
        }
        return respond(uri, 400, "Bad Request", "body", "cannot be read as this request's body");
    }

    private static Response unreadable(StreamReadException e, UriInfo uri) {
        String field = "body";
        String message = "is not valid JSON";
        JsonParser parser = e.getProcessor();
        if (parser != null && parser.getParsingContext() != null) {
            JsonStreamContext context = parser.getParsingContext();
            Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            if (duplicate.find()) {
                // the context still names the previous member: the duplicate belongs to its parent object
                field = join(context.getParent() == null ? "body" : path(context.getParent()), duplicate.group(1));
                message = "is given more than once";
            } else {
                field = path(context);
            }
        }
        return Response.status(400).type(Problem.MEDIA_TYPE).entity(new Problem("about:blank", "Bad Request", 400,
                "The request could not be read: check its JSON syntax and field types.", uri.getPath(),
                List.of(new Problem.FieldError(field, message)))).build();
    }

    private static Response unmapped(JsonMappingException e, UriInfo uri) {
        String field = path(e.getPath());
        if (e instanceof UnrecognizedPropertyException unknown) {
            return respond(uri, 422, "Unprocessable Content", field, "is not a known member; known members are "
                    + known(unknown.getKnownPropertyIds()));
        }
        if (e instanceof InvalidFormatException format && format.getTargetType() != null) {
            Class<?> type = format.getTargetType();
            if (type.isEnum()) {
                return respond(uri, 422, "Unprocessable Content", field, "must be " + expected(type));
            }
            if (type == String.class && format.getValue() instanceof String text && PlainText.problem(text) != null) {
                return respond(uri, 422, "Unprocessable Content", field, "contains " + PlainText.problem(text));
            }
        }
        if (e instanceof ValueInstantiationException) {
            Throwable cause = e.getCause();
            if (cause instanceof DomainException domain) {
                return respond(uri, ProblemException.of(domain).status(), "Unprocessable Content", field,
                        domain.getMessage());
            }
            if (cause instanceof IllegalArgumentException || cause instanceof NullPointerException) {
                return respond(uri, 422, "Unprocessable Content", field, String.valueOf(cause.getMessage()));
            }
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return respond(uri, 400, "Bad Request", field, "must be " + expected(mismatch.getTargetType()));
        }
        return respond(uri, 400, "Bad Request", field, "cannot be read as this request's body");
    }

    /** What a value of {@code type} looks like in JSON, for "must be ..." messages. */
    static String expected(Class<?> type) {
        if (type.isEnum()) {
            return "one of " + Arrays.stream(type.getEnumConstants()).map(c -> ((Enum<?>) c).name())
                    .collect(Collectors.joining(", "));
        }
        if (type == int.class || type == long.class || type == Integer.class || type == Long.class
                || type == short.class || type == Short.class) {
            return "an integer";
        }
        if (type.isPrimitive() && type != boolean.class || Number.class.isAssignableFrom(type)) {
            return "a finite number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Instant.class) {
            return "an ISO-8601 instant such as 2026-01-01T00:00:00Z";
        }
        if (type == Duration.class) {
            return "an ISO-8601 duration such as PT1H";
        }
        if (type.isArray() || Collection.class.isAssignableFrom(type)) {
            return "a JSON array";
        }
        return "a JSON object";
    }

    private static String known(Collection<Object> ids) {
        return ids == null ? "none" : new TreeSet<>(ids.stream().map(String::valueOf).toList()).toString();
    }

    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder("body");
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append('.').append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String path(JsonStreamContext context) {
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inObject() && c.getCurrentName() != null) {
                path.insert(0, "." + c.getCurrentName());
            } else if (c.inArray()) {
                path.insert(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
            }
        }
        return "body" + path;
    }

    private static String join(String parent, String member) {
        return parent + "." + member;
    }

    private static Response respond(UriInfo uri, int status, String title, String field, String message) {
        return Response.status(status).type(Problem.MEDIA_TYPE).entity(new Problem("about:blank", title, status,
                field + ": " + message, uri.getPath(), List.of(new Problem.FieldError(field, message)))).build();
    }
}
