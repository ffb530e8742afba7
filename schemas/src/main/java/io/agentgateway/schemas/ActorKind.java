package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Who issued a command. On the wire as its lower-case name. */
public enum ActorKind {
    USER,
    API_KEY,
    SYSTEM;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<ActorKind> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
