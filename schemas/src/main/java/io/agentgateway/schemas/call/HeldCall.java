package io.agentgateway.schemas.call;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.agentgateway.schemas.HeldCallKind;

/**
 * The exact call an approval holds, for the gateway to replay once a reviewer approved it. It never
 * travels in clear: {@link HeldCallSeal} seals its JSON into a {@link SealedHeldCall} (it may carry
 * credentials or personal data in headers, arguments or body). The {@code type} property names the
 * variant, with the same wire names as {@link HeldCallKind}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = HeldHttpRequest.class, name = "http_request"),
    @JsonSubTypes.Type(value = HeldMcpToolCall.class, name = "mcp_tool_call"),
    @JsonSubTypes.Type(value = HeldMcpRequest.class, name = "mcp_request"),
})
public sealed interface HeldCall permits HeldHttpRequest, HeldMcpToolCall, HeldMcpRequest {

    /** Which runner replays it. */
    @JsonIgnore
    HeldCallKind kind();
}
