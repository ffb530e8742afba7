package io.agentgateway.httpedge.web;

import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/** Strict uuid parsing: {@link UUID#fromString} accepts forms such as {@code 1-1-1-1-1}. */
public final class Uuids {
    private static final Pattern CANONICAL =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private Uuids() {}

    /** The lower-case canonical form of {@code value}, or empty when it is not a uuid. */
    public static Optional<String> canonical(String value) {
        if (value == null || !CANONICAL.matcher(value).matches()) {
            return Optional.empty();
        }
        return Optional.of(value.toLowerCase(Locale.ROOT));
    }

    /** The uuid in {@code value} or a 400 with {@code "<name> must be a uuid"}. */
    public static UUID require(String value, String name) {
        return canonical(value).map(UUID::fromString)
                .orElseThrow(() -> ApiException.badRequest(name + " must be a uuid"));
    }
}
