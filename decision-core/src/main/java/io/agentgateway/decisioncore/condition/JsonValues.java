package io.agentgateway.decisioncore.condition;

import dev.cel.common.values.NullValue;
import java.util.AbstractList;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * JSON values as CEL reads them, without copying: an object is a read-only {@code Map<String, Object>} view, an
 * array a {@code List<Object>} view, each member converted when a condition reads it (a condition reading one key of
 * a large payload converts that key only).
 *
 * <p>Numbers: an integer that fits a long is a CEL {@code int}, any other number a {@code double}; with CEL's
 * heterogeneous numeric comparisons on, {@code args.amount > 1000} holds for 1500 and for 1500.0 alike. A string
 * stays a string: {@code "1500" > 1000} has no overload and fails (fail closed), it never reads as a number.
 */
final class JsonValues {
    private JsonValues() {}

    static Object of(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return NullValue.NULL_VALUE;
        }
        if (node.isObject()) {
            return new ObjectView(node);
        }
        if (node.isArray()) {
            return new ArrayView(node);
        }
        if (node.isString()) {
            return node.stringValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        // binary and embedded values do not come from parsed JSON; read as their text
        return node.asString();
    }

    private static final class ObjectView extends AbstractMap<String, Object> {
        private final JsonNode node;

        ObjectView(JsonNode node) {
            this.node = node;
        }

        @Override
        public Object get(Object key) {
            if (!(key instanceof String name)) {
                return null;
            }
            JsonNode member = node.get(name);
            return member == null ? null : of(member);
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String name && node.has(name);
        }

        @Override
        public int size() {
            return node.size();
        }

        @Override
        public Set<Entry<String, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, Object>> iterator() {
                    Iterator<Map.Entry<String, JsonNode>> members = node.properties().iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return members.hasNext();
                        }

                        @Override
                        public Entry<String, Object> next() {
                            Map.Entry<String, JsonNode> member = members.next();
                            return new SimpleImmutableEntry<>(member.getKey(), of(member.getValue()));
                        }
                    };
                }

                @Override
                public int size() {
                    return node.size();
                }
            };
        }
    }

    private static final class ArrayView extends AbstractList<Object> {
        private final JsonNode node;

        ArrayView(JsonNode node) {
            this.node = node;
        }

        @Override
        public Object get(int index) {
            if (index < 0 || index >= node.size()) {
                throw new IndexOutOfBoundsException("index " + index + " out of range [0, " + node.size() + ")");
            }
            return of(node.get(index));
        }

        @Override
        public int size() {
            return node.size();
        }
    }
}
