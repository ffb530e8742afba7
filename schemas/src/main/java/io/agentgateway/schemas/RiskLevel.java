package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Risk of an action, least severe first (spec section 2); ordinal order is severity order. On the wire as its lower-case name. */
public enum RiskLevel {
    LOW,
    MEDIUM,
    HIGH,
    CRITICAL;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<RiskLevel> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
