package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** Whether the risk level was derived by the gateway or taken from the caller (spec 4.1). On the wire as its lower-case name. */
public enum RiskClassification {
    SERVER_CLASSIFIED,
    CALLER_SUPPLIED;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<RiskClassification> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
