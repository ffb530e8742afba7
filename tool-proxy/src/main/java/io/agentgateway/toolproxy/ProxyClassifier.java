package io.agentgateway.toolproxy;

import io.agentgateway.classification.ClassifiedAction;
import io.agentgateway.classification.GraphQlActions;
import io.agentgateway.classification.MalformedCallException;
import io.agentgateway.classification.RestActionTable;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.classification.ToolProfile;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Which classification a proxied request gets, by its tool's profile (spec 4.5), always from the canonical
 * {@link UpstreamPath}. A tool with fixed tables (the code host's REST table and GraphQL API, the issue tracker's
 * GraphQL API) is classified by them before the connection is read (so a malformed GraphQL request is a 400
 * whatever the key); a tool without (chat, docs, internal_api) by its connection's rules, once the connection is
 * known.
 */
final class ProxyClassifier {
    static final String GRAPHQL_PATH = "/graphql";
    private static final RiskClassifier RISKS = new RiskClassifier();

    private ProxyClassifier() {}

    /** How the proxy serves the tool; the MCP gate's tool is never proxied. */
    static ToolProfile.Proxied proxied(Tool tool) {
        return ToolProfiles.of(tool).proxy()
                .orElseThrow(() -> new IllegalStateException("the proxy does not serve " + tool.wire()));
    }

    /** @return the classification by the spec's tables, or empty for a tool classified by its connection's rules */
    static Optional<ProxyAction> byFixedTables(Tool tool, HttpMethod method, UpstreamPath path, byte[] body) {
        ToolProfile.Proxied proxied = proxied(tool);
        if (proxied.classifiedByConnectionRules()) {
            return Optional.empty();
        }
        if (isGraphQl(tool, path)) {
            return Optional.of(graphQl(tool, method, body));
        }
        // a GraphQL API alone has one path, POST /graphql; anything else is refused before it is evaluated
        RestActionTable table = proxied.restTable().orElseThrow(() -> new ApiException(HttpStatus.NOT_FOUND,
                "The " + ToolProfiles.of(tool).displayName() + " is proxied at POST " + GatewayProxyHandler.PREFIX
                        + tool.wire() + GRAPHQL_PATH + " only"));
        return Optional.of(rest(tool, proxied, table, method, path));
    }

    /** The whole classification, once the connection's rules are known (empty for the code host and the issue tracker). */
    static ProxyAction classify(Tool tool, HttpMethod method, UpstreamPath path, byte[] body, List<ClassificationRule> rules) {
        return byFixedTables(tool, method, path, body).orElseGet(() -> RuleActions.classify(rules, method, path));
    }

    /**
     * Whether the request goes to the tool's GraphQL API: its only endpoint {@code /graphql}, or beside a REST
     * table the path {@code /graphql} (in any case where the tool routes case-insensitively).
     */
    static boolean isGraphQl(Tool tool, UpstreamPath path) {
        ToolProfile.Proxied proxied = proxied(tool);
        if (proxied.graphQl().isEmpty()) {
            return false;
        }
        if (proxied.caseInsensitiveRoutes()) {
            return path.segments().size() == 1 && path.segments().get(0).equalsIgnoreCase(GRAPHQL_PATH.substring(1));
        }
        return GRAPHQL_PATH.equals(path.canonical());
    }

    /** A row of the tool's REST table; the risk is its risk table's, the one the decision stream uses. */
    private static ProxyAction rest(Tool tool, ToolProfile.Proxied proxied, RestActionTable table, HttpMethod method,
                                    UpstreamPath path) {
        List<String> segments = proxied.caseInsensitiveRoutes() ? lowerCase(path.segments()) : path.segments();
        RestActionTable.RestAction row = table.classify(method.name(), segments);
        RiskLevel risk = RISKS.classify(tool, row.action(), null).orElseThrow().level();
        return new ProxyAction(row.action(), risk, row.resourceType(), row.resourceId());
    }

    /** The segments in lower case; the list itself when none has an upper-case letter (the usual request). */
    private static List<String> lowerCase(List<String> segments) {
        List<String> lower = null;
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            String lowered = segment.toLowerCase(Locale.ROOT);
            if (lower == null && !lowered.equals(segment)) {
                lower = new ArrayList<>(segments.subList(0, i));
            }
            if (lower != null) {
                lower.add(lowered);
            }
        }
        return lower == null ? segments : lower;
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
