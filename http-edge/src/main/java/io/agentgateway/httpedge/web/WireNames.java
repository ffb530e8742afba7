package io.agentgateway.httpedge.web;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** "a, b, c" from an enum's wire names, for error texts that list the allowed values. */
public final class WireNames {
    private WireNames() {}

    public static String of(Enum<?>[] values) {
        return Arrays.stream(values).map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
    }
}
