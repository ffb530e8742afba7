package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * How an evaluation's agent id is known. {@code bound}: the API key is bound to that agent id (or to a
 * pattern the id matches), so only holders of that key can act under it; {@code asserted}: the caller named
 * the agent ({@code X-Agent-Id}, {@code agentId}) with a key bound to no agent, which anyone holding a key of
 * the workspace can do. On the wire as its lower-case name.
 */
public enum AgentIdentity {
    BOUND,
    ASSERTED;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<AgentIdentity> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
