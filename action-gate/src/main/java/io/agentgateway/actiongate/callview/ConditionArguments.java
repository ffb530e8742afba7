package io.agentgateway.actiongate.callview;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * What the proxy and the MCP gate put in a command for policy conditions: the whole arguments as the upstream gets
 * them, with values that look like credentials replaced by {@link Redaction#MARK} before they enter the log (the
 * commands topic is kept forever and, unlike the sealed held call, this copy is in clear: docs/decisions/0001), or,
 * above {@code gateway.conditions.max-arguments-bytes}, only their size (a condition reading them then fails closed).
 */
@Component
public class ConditionArguments {
    private final int maxBytes;

    public ConditionArguments(ConditionInputProperties properties) {
        this.maxBytes = properties.maxArgumentsBytes();
    }

    /**
     * @param arguments  the arguments as the upstream gets them (null: none)
     * @param unresolved facts a lookup could not establish (null or empty: none)
     */
    public ConditionInputs inputs(JsonNode arguments, RequestFacts request, TargetFacts target, List<String> unresolved) {
        List<String> missing = unresolved == null || unresolved.isEmpty() ? null : List.copyOf(unresolved);
        if (arguments == null || arguments.isNull()) {
            return new ConditionInputs(null, null, request, target, missing);
        }
        int bytes = IngressJson.RESPONSES.writeValueAsBytes(arguments).length;
        if (bytes > maxBytes) {
            return new ConditionInputs(null, bytes, request, target, missing);
        }
        return new ConditionInputs(new Redaction().json(arguments), null, request, target, missing);
    }
}
