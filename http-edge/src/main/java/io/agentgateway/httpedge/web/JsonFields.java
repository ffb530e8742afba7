package io.agentgateway.httpedge.web;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Typed reads of request body fields, each failing with a 400 whose text names the field. A JSON
 * {@code null} counts as absent for optional fields.
 */
public final class JsonFields {
    private JsonFields() {}

    public static boolean isAbsent(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull();
    }

    /** A string or null; anything else is {@code "<field> must be a string"}. */
    public static String optionalString(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isString()) {
            throw ApiException.badField(field, field + " must be a string");
        }
        return value.stringValue();
    }

    /** A string that is not blank, else a 400 with {@code message}. */
    public static String requiredText(ObjectNode body, String field, String message) {
        JsonNode value = body.get(field);
        if (value == null || !value.isString() || value.stringValue().isBlank()) {
            throw ApiException.badField(pathOf(message, field), message);
        }
        return value.stringValue();
    }

    /** A string naming one constant, else a 400 with {@code message}. */
    public static <E> E requiredEnum(ObjectNode body, String field, Function<String, Optional<E>> parse, String message) {
        JsonNode value = body.get(field);
        if (value == null || !value.isString()) {
            throw ApiException.badField(pathOf(message, field), message);
        }
        return parse.apply(value.stringValue()).orElseThrow(() -> ApiException.badField(pathOf(message, field), message));
    }

    public static <E> E optionalEnum(ObjectNode body, String field, Function<String, Optional<E>> parse, String message) {
        return isAbsent(body, field) ? null : requiredEnum(body, field, parse, message);
    }

    public static boolean requiredBoolean(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || !value.isBoolean()) {
            throw ApiException.badField(field, field + " must be a boolean");
        }
        return value.booleanValue();
    }

    public static boolean optionalBoolean(ObjectNode body, String field, boolean absentValue) {
        return isAbsent(body, field) ? absentValue : requiredBoolean(body, field);
    }

    public static int requiredInt(ObjectNode body, String field) {
        JsonNode value = body.get(field);
        if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
            throw ApiException.badField(field, field + " must be an integer");
        }
        return value.intValue();
    }

    /** An ISO-8601 instant such as {@code 2030-01-01T00:00:00Z}, or null when absent. */
    public static Instant optionalInstant(ObjectNode body, String field) {
        String text = optionalString(body, field);
        return text == null ? null : instant(text, field);
    }

    /** The earliest and the latest instant a timestamp may name (PostgreSQL and ISO-8601 without expansion agree on these). */
    public static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
    public static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999999Z");

    public static Instant instant(String text, String field) {
        Instant instant;
        try {
            instant = Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badField(field, field + " must be an ISO-8601 timestamp");
        }
        if (!inRange(instant)) {
            throw ApiException.badField(field, field + " must be an ISO-8601 timestamp between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z");
        }
        return instant;
    }

    /** Whether an instant lies between {@link #EARLIEST} and {@link #LATEST}: a database column can hold it. */
    public static boolean inRange(Instant instant) {
        return !instant.isBefore(EARLIEST) && !instant.isAfter(LATEST);
    }

    /** An ISO-8601 duration such as {@code PT24H}, or null when absent. */
    public static Duration optionalDuration(ObjectNode body, String field) {
        String text = optionalString(body, field);
        if (text == null) {
            return null;
        }
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badField(field, field + " must be an ISO-8601 duration such as PT24H");
        }
    }

    /** An array of strings (absent = empty), else {@code "<field> must be an array of strings"}. */
    public static List<String> stringList(JsonNode container, String field, String name) {
        JsonNode value = container.get(field);
        if (value == null || value.isNull()) {
            return List.of();
        }
        if (!value.isArray()) {
            throw ApiException.badField(name, name + " must be an array of strings");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isString() || item.stringValue().isBlank()) {
                throw ApiException.badField(name, name + " must be an array of strings");
            }
            items.add(item.stringValue());
        }
        return List.copyOf(items);
    }

    /** An array of enum wire names (absent = empty), else a 400 with {@code message}. */
    public static <E> Set<E> enumSet(JsonNode container, String field, Function<String, Optional<E>> parse, String message) {
        JsonNode value = container.get(field);
        if (value == null || value.isNull()) {
            return Set.of();
        }
        String path = pathOf(message, field);
        if (!value.isArray()) {
            throw ApiException.badField(path, message);
        }
        Set<E> items = new LinkedHashSet<>();
        for (JsonNode item : value) {
            if (!item.isString()) {
                throw ApiException.badField(path, message);
            }
            items.add(parse.apply(item.stringValue()).orElseThrow(() -> ApiException.badField(path, message)));
        }
        return Set.copyOf(items);
    }

    /**
     * The field's whole path as its message names it first ({@code "match.tools must be ..."} for {@code tools}), else
     * the field's own name.
     */
    static String pathOf(String message, String field) {
        int space = message.indexOf(' ');
        String first = space < 0 ? message : message.substring(0, space);
        return first.equals(field) || first.endsWith("." + field) ? first : field;
    }

    /** Refuses fields outside {@code known}: a misspelt field must not silently be ignored. */
    public static void onlyKnownFields(JsonNode object, Set<String> known, String prefix) {
        for (String name : object.propertyNames()) {
            if (!known.contains(name)) {
                throw ApiException.badRequest("unknown field: " + prefix + name);
            }
        }
    }
}
