package io.agentgateway.console.admin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.springframework.util.MultiValueMap;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * A submitted form turned into the admin API's JSON body, so that the API's own validation judges it (one set of
 * rules, one set of texts). Blank inputs are left out (absent means "not set" in every body the console sends).
 */
final class Forms {
    static final int MAX_LIST_ITEMS = 200;

    private Forms() {}

    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /** The input's value, stripped; null when absent or blank. */
    static String text(MultiValueMap<String, String> form, String name) {
        String value = form.getFirst(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** The input's value as typed (no stripping: a secret with surrounding spaces is the API's to refuse); null when empty. */
    static String raw(MultiValueMap<String, String> form, String name) {
        String value = form.getFirst(name);
        return value == null || value.isEmpty() ? null : value;
    }

    static boolean checked(MultiValueMap<String, String> form, String name) {
        String value = form.getFirst(name);
        return value != null && !value.isEmpty() && !"false".equals(value);
    }

    /** Every value of a repeated input (checkboxes), non-blank ones. */
    static List<String> values(MultiValueMap<String, String> form, String name) {
        List<String> values = form.get(name);
        return values == null ? List.of() : values.stream().filter(v -> v != null && !v.isBlank()).map(String::strip).toList();
    }

    /** One item per line or comma of a text area, blank ones left out. */
    static List<String> lines(String text) {
        if (text == null) {
            return List.of();
        }
        List<String> items = new ArrayList<>();
        Arrays.stream(text.split("[\\r\\n,]+")).map(String::strip).filter(s -> !s.isEmpty()).limit(MAX_LIST_ITEMS)
                .forEach(items::add);
        return items;
    }

    static void putText(ObjectNode body, String field, String value) {
        if (value != null) {
            body.put(field, value);
        }
    }

    /** A list, when it has items (an empty list means "any" and is left out). */
    static void putList(ObjectNode body, String field, List<String> items) {
        if (!items.isEmpty()) {
            ArrayNode array = body.putArray(field);
            items.forEach(array::add);
        }
    }

    /**
     * A whole number as a number, anything else as the text it is: the API then says "must be an integer" at the field
     * rather than the console guessing.
     */
    static void putInteger(ObjectNode body, String field, String text) {
        if (text == null) {
            return;
        }
        try {
            body.put(field, Integer.parseInt(text));
        } catch (NumberFormatException notAnInteger) {
            body.put(field, text);
        }
    }
}
