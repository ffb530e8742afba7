package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** What a reviewer decided about a pending approval request. On the wire as its lower-case name. */
public enum ReviewVerdict {
    APPROVE,
    REJECT;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<ReviewVerdict> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
