package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** The outcome of every evaluation (spec section 3). On the wire as its lower-case name. */
public enum Decision {
    ALLOW,
    BLOCK,
    REQUIRE_APPROVAL;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<Decision> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
