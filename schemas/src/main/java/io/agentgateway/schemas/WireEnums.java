package io.agentgateway.schemas;

import java.util.Locale;
import java.util.Optional;

/** Lookup of enum constants by their lower-case wire name, shared by every enum of the contract. */
final class WireEnums {
    private WireEnums() {}

    /** Each enum's wire names by ordinal, made once: enums are written on every record of the decision path. */
    private static final ClassValue<String[]> WIRE_NAMES = new ClassValue<>() {
        @Override
        protected String[] computeValue(Class<?> type) {
            Object[] constants = type.getEnumConstants();
            String[] names = new String[constants.length];
            for (int i = 0; i < constants.length; i++) {
                names[i] = ((Enum<?>) constants[i]).name().toLowerCase(Locale.ROOT);
            }
            return names;
        }
    };

    static String wire(Enum<?> value) {
        return WIRE_NAMES.get(value.getDeclaringClass())[value.ordinal()];
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
