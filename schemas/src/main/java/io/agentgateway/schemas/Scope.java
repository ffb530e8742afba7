package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What an API key may be used for. On the wire as its lower-case name. */
public enum Scope {
    EVALUATE,
    MCP,
    PROXY;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<Scope> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
