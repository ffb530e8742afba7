package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * What a tool-connection update does to one stored secret: leave it as it is, replace it with the
 * sealed value that travels with it, or remove it. On the wire as its lower-case name.
 */
public enum SecretChange {
    KEEP,
    SET,
    CLEAR;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<SecretChange> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
