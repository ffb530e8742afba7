package io.agentgateway.schemas;

import java.util.Locale;
import java.util.Optional;

/** Lookup of enum constants by their lower-case wire name, shared by every enum of the contract. */
final class WireEnums {
    private WireEnums() {}

    static String wire(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    static <E extends Enum<E>> Optional<E> parse(E[] values, String wire) {
        if (wire == null) {
            return Optional.empty();
        }
        for (E value : values) {
            if (wire(value).equals(wire)) {
                return Optional.of(value);
            }
        }
        return Optional.empty();
    }
}
