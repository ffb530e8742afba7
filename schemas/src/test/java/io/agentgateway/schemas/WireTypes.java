package io.agentgateway.schemas;

import io.agentgateway.schemas.call.HeldCall;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The Java types that make up the wire contract, found by walking the record components (and the
 * permitted subclasses of sealed interfaces) from the four top-level record types on the topics. Tests
 * use it so that a new nested record or enum cannot slip past the schema and enum checks.
 */
final class WireTypes {
    /** The records on the topics, and the held call that travels sealed inside commands and events. */
    static final List<Class<?>> TOP_LEVEL =
            List.of(CommandEnvelope.class, EventEnvelope.class, Reply.class, NotificationRequested.class, HeldCall.class);

    private final Set<Class<?>> records = new LinkedHashSet<>();
    private final Set<Class<?>> enums = new LinkedHashSet<>();

    private WireTypes() {
        Deque<Type> pending = new ArrayDeque<>(TOP_LEVEL);
        Set<Type> seen = new LinkedHashSet<>();
        while (!pending.isEmpty()) {
            Type type = pending.pop();
            if (!seen.add(type)) {
                continue;
            }
            if (type instanceof ParameterizedType parameterized) {
                pending.addAll(Arrays.asList(parameterized.getActualTypeArguments()));
            } else if (type instanceof Class<?> c && c.getPackageName().startsWith("io.agentgateway.schemas")) {
                if (c.isRecord()) {
                    records.add(c);
                    for (RecordComponent component : c.getRecordComponents()) {
                        pending.add(component.getGenericType());
                    }
                } else if (c.isEnum()) {
                    enums.add(c);
                } else if (c.isSealed()) {
                    pending.addAll(Arrays.asList(c.getPermittedSubclasses()));
                }
            }
        }
    }

    static Set<Class<?>> records() {
        return new WireTypes().records;
    }

    static Set<Class<?>> enums() {
        return new WireTypes().enums;
    }
}
