package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** How the gateway's run of an approved call ended: it reached the upstream and got an answer (`executed`, whatever the answer said), or it did not (`failed`). On the wire as its lower-case name. */
public enum ExecutionOutcome {
    EXECUTED,
    FAILED;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<ExecutionOutcome> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
