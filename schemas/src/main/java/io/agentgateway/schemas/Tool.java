package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** A tool an agent acts on (spec section 2). On the wire as its lower-case name. */
public enum Tool {
    CODE_HOST,
    ISSUE_TRACKER,
    CHAT,
    DOCS,
    INTERNAL_API,
    MCP;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<Tool> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
