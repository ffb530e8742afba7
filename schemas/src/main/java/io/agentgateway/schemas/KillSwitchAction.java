package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The kill-switch operations of spec 4.2. On the wire as its lower-case name. */
public enum KillSwitchAction {
    ENABLE,
    DISABLE,
    PAUSE_TOOL,
    RESUME_TOOL;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<KillSwitchAction> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
