package io.agentgateway.ingress.proxy;

import io.agentgateway.classification.ClassifiedAction;
import io.agentgateway.classification.GraphQlActions;
import io.agentgateway.classification.MalformedCallException;
import io.agentgateway.ingress.web.ApiException;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.Tool;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Which classification a proxied request gets, by tool (spec 4.5), always from the canonical
 * {@link UpstreamPath}. The code host and the issue tracker are classified by the spec's fixed tables
 * before the connection is read (so a malformed GraphQL request is a 400 whatever the key); chat, docs
 * and internal_api by their connection's rules, once the connection is known.
 */
final class ProxyClassifier {
    static final String GRAPHQL_PATH = "/graphql";

    private ProxyClassifier() {}

    /** @return the classification by the spec's tables, or empty for a tool classified by its connection's rules */
    static Optional<ProxyAction> byFixedTables(Tool tool, HttpMethod method, UpstreamPath path, byte[] body) {
        return switch (tool) {
            case CODE_HOST -> Optional.of(CodeHostActions.isGraphQl(path)
                    ? graphQl(Tool.CODE_HOST, method, body)
                    : CodeHostActions.classify(method, path));
            case ISSUE_TRACKER -> Optional.of(issueTracker(method, path, body));
            case CHAT, DOCS, INTERNAL_API -> Optional.empty();
            case MCP -> throw new IllegalStateException("the MCP gate serves mcp, not the proxy");
        };
    }

    /** The whole classification, once the connection's rules are known (empty for the code host and the issue tracker). */
    static ProxyAction classify(Tool tool, HttpMethod method, UpstreamPath path, byte[] body, List<ClassificationRule> rules) {
        return byFixedTables(tool, method, path, body).orElseGet(() -> RuleActions.classify(rules, method, path));
    }

    /** The issue tracker has one path, {@code POST /graphql}; anything else is refused before it is evaluated. */
    private static ProxyAction issueTracker(HttpMethod method, UpstreamPath path, byte[] body) {
        if (!GRAPHQL_PATH.equals(path.canonical())) {
            throw new ApiException(HttpStatus.NOT_FOUND,
                    "The issue tracker is proxied at POST /functions/v1/gateway-proxy/issue_tracker/graphql only");
        }
        return graphQl(Tool.ISSUE_TRACKER, method, body);
    }

    /** A GraphQL endpoint takes POST only: a GET's query string would be a second place for a document. */
    private static ProxyAction graphQl(Tool tool, HttpMethod method, byte[] body) {
        if (!method.equals(HttpMethod.POST)) {
            throw ApiException.methodNotAllowed(List.of(HttpMethod.POST));
        }
        JsonNode json;
        try {
            json = body.length == 0 ? null : IngressJson.REQUESTS.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("The GraphQL request body must be a JSON object with a query");
        }
        try {
            ClassifiedAction action = GraphQlActions.classify(tool, json);
            return ProxyAction.of(action.action(), action.risk());
        } catch (MalformedCallException e) {
            throw ApiException.badRequest(e.getMessage());
        }
    }
}
