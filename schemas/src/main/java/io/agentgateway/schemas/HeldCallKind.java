package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What kind of call an approval holds for the gateway to run once it is approved. On the wire as its lower-case name. */
public enum HeldCallKind {
    HTTP_REQUEST,
    MCP_TOOL_CALL,
    /**
     * An MCP {@code resources/read} or {@code prompts/get}, decided as an action of its own: {@code HeldMcpRequest}.
     */
    MCP_REQUEST;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<HeldCallKind> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
