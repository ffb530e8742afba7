package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Which entry point an action came through; policies can match on it. On the wire as its lower-case name. */
public enum ActionSource {
    EVALUATE,
    PROXY,
    MCP,
    WEBHOOK;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<ActionSource> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
