package io.agentgateway.schemas.kafka;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import io.agentgateway.schemas.event.DomainEvent;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * The {@code event-type} header of an events-topic record: the event's wire type name
 * ({@code approval_reviewed}, the {@code type} inside the value). A consumer that wants one kind of
 * event (the approval executor, the MCP connection cache) skips every other record without reading
 * its value. The value alone stays the record: records written before the header existed have none,
 * so a reader must fall back to the value when {@link #typeOf} is empty.
 */
public final class EventTypeHeader {
    public static final String NAME = "event-type";

    /** The wire names of {@link DomainEvent}'s subtypes, read once from its {@link JsonSubTypes}. */
    private static final Map<Class<?>, byte[]> WIRE_NAMES = wireNames();

    private EventTypeHeader() {}

    /** Headers naming {@code event}'s type; a fresh instance per record (Kafka may add to it). */
    public static Headers of(DomainEvent event) {
        byte[] name = WIRE_NAMES.get(event.getClass());
        if (name == null) {
            throw new IllegalArgumentException(event.getClass() + " is not a subtype listed on DomainEvent");
        }
        return new RecordHeaders().add(NAME, name.clone());
    }

    /** The type the record's header names, empty when it has none (a record from before the header). */
    public static Optional<String> typeOf(Headers headers) {
        Header header = headers == null ? null : headers.lastHeader(NAME);
        return header == null || header.value() == null
                ? Optional.empty()
                : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }

    /**
     * Whether a record may hold one of {@code types}: what its header says, or, for a record from before
     * the header, whether its value mentions one of the names (the mapper writes them literally; a value
     * that merely quotes one is parsed by the caller and then ignored). Never false for a record that is one.
     */
    public static boolean mayBeOneOf(Headers headers, byte[] value, Set<String> types) {
        Optional<String> type = typeOf(headers);
        if (type.isPresent()) {
            return types.contains(type.get());
        }
        return value != null && types.stream().anyMatch(name -> mentions(value, name.getBytes(StandardCharsets.UTF_8)));
    }

    private static boolean mentions(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** The wire name of a subtype, as written in the header and in the value's {@code type}. */
    public static String wireName(Class<? extends DomainEvent> type) {
        byte[] name = WIRE_NAMES.get(type);
        if (name == null) {
            throw new IllegalArgumentException(type + " is not a subtype listed on DomainEvent");
        }
        return new String(name, StandardCharsets.UTF_8);
    }

    private static Map<Class<?>, byte[]> wireNames() {
        Map<Class<?>, byte[]> names = new HashMap<>();
        Arrays.stream(DomainEvent.class.getAnnotation(JsonSubTypes.class).value())
                .forEach(type -> names.put(type.value(), type.name().getBytes(StandardCharsets.UTF_8)));
        return Map.copyOf(names);
    }
}
