package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * How the upstream MCP server is spoken to (spec section 2): server-sent events or streamable HTTP.
 * On the wire as its lower-case name.
 */
public enum McpTransport {
    SSE,
    HTTP;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<McpTransport> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
