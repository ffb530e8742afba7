package io.agentgateway.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Optional;

/** How the decision stream answered a synchronous command. On the wire as its lower-case name. */
public enum ReplyStatus {
    OK,
    UNAUTHORIZED,
    FORBIDDEN,
    NOT_FOUND,
    CONFLICT,
    INVALID,
    /**
     * The command named a version of a tool connection (the one the entry point holds) that is not the
     * workspace's current one: nothing was decided, and {@code Reply.connection} carries the current one
     * (null: the workspace has none) for the entry point to adopt and ask again with.
     */
    STALE,
    /**
     * Refused because the workspace is at one of its limits (open approvals, API keys, policies, the size
     * of a policy or of the workspace's configuration, repositories of a connection). The error names the
     * limit and its setting; the refusal is audited ({@link io.agentgateway.schemas.event.LimitReached}).
     */
    LIMITED;

    @JsonValue
    public String wire() {
        return WireEnums.wire(this);
    }

    /** The constant for a wire name, or empty: callers turn empty into their own error text. */
    public static Optional<ReplyStatus> parse(String wire) {
        return WireEnums.parse(values(), wire);
    }
}
