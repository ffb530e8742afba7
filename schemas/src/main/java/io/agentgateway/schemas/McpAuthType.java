package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * How the MCP gate presents the stored credential to the upstream MCP server (spec 4.3, rule 2):
 * {@code Authorization: Bearer <token>} or {@code Authorization: token <token>}. On the wire as its
 * lower-case name.
 */
public enum McpAuthType {
    BEARER,
    TOKEN;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<McpAuthType> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
