package io.agentgateway.ingress.proxy;

import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.schemas.Tool;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** Which classification a proxied request gets, by tool (spec 4.5). */
final class ProxyClassifier {
    static final String GRAPHQL_PATH = "/graphql";

    private ProxyClassifier() {}

    static ProxyAction classify(Tool tool, HttpMethod method, UpstreamPath path, byte[] body) {
        return switch (tool) {
            case CODE_HOST -> CodeHostActions.classify(method, path);
            case ISSUE_TRACKER -> issueTracker(method, path, body);
            case CHAT, DOCS, INTERNAL_API -> DefaultToolActions.classify(method, path);
            case MCP -> throw new IllegalStateException("the MCP gate serves mcp, not the proxy");
        };
    }

    /** The issue tracker has one path, {@code POST /graphql}; anything else is refused before it is evaluated. */
    private static ProxyAction issueTracker(HttpMethod method, UpstreamPath path, byte[] body) {
        if (!GRAPHQL_PATH.equals(path.raw())) {
            throw new ApiException(HttpStatus.NOT_FOUND,
                    "The issue tracker is proxied at POST /functions/v1/gateway-proxy/issue_tracker/graphql only");
        }
        if (!method.equals(HttpMethod.POST)) {
            throw ApiException.methodNotAllowed(java.util.List.of(HttpMethod.POST));
        }
        JsonNode json;
        try {
            json = body.length == 0 ? null : IngressJson.REQUESTS.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("The GraphQL request body must be a JSON object with a query");
        }
        return GraphQlActions.classify(json);
    }
}
