package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/**
 * A member's role in a workspace; admin and owner may administer it. A reviewer reads the workspace and decides its
 * approvals (nothing else); a viewer reads it and decides nothing. On the wire as its lower-case name.
 */
public enum Role {
    OWNER,
    ADMIN,
    MEMBER,
    REVIEWER,
    VIEWER;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<Role> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
