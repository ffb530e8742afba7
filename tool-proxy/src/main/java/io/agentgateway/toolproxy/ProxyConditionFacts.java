package io.agentgateway.toolproxy;

import io.agentgateway.classification.GraphQlActions;
import io.agentgateway.classification.GraphQlOperation;
import io.agentgateway.classification.MalformedCallException;
import io.agentgateway.classification.ToolProfile.TargetShape;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.actiongate.callview.ConditionArguments;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.ConditionInputs;
import io.agentgateway.schemas.command.condition.RequestFacts;
import io.agentgateway.schemas.command.condition.TargetFacts;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpMethod;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * What policy conditions read of a proxied request (docs/policies.md): read from exactly what the proxy classified and
 * forwards (the canonical path's segments, the query as forwarded, the body), never from a second parse of the raw URI.
 * Target facts are raw: the decision core normalizes them.
 */
final class ProxyConditionFacts {
    private ProxyConditionFacts() {}

    /** A request's body as JSON (null for none or not JSON); a GraphQL request's arguments are its {@code variables}. */
    static JsonNode arguments(byte[] body, boolean graphQl) {
        JsonNode json = json(body);
        if (graphQl) {
            JsonNode variables = json == null ? null : json.get("variables");
            return variables == null || variables.isNull() ? null : variables;
        }
        return json;
    }

    static RequestFacts request(HttpMethod method, UpstreamPath path, byte[] body, boolean graphQl) {
        String operationName = null;
        List<String> mutationFields = null;
        if (graphQl) {
            try {
                GraphQlOperation operation = GraphQlActions.describe(json(body));
                operationName = operation.operationName();
                mutationFields = operation.mutation() ? operation.rootFields() : null;
            } catch (MalformedCallException e) {
                // classified already: nothing more to read
            }
        }
        return new RequestFacts(method.name(), path.segments(), query(path.query()), operationName, mutationFields);
    }

    /**
     * A repository's target (the code host) from the path: {@code /repos/{owner}/{repo}/...}; a contents call's file path; a ref's
     * branch ({@code git/refs/heads/{branch}}); the branch a contents write names in its body ({@code branch}), a new
     * pull request's base ({@code base}). A team's (the issue tracker): the team a mutation's {@code input.teamId} names.
     */
    static TargetFacts target(Tool tool, UpstreamPath path, JsonNode arguments) {
        List<String> segments = path.segments();
        TargetShape shape = ToolProfiles.of(tool).targetShape();
        if (shape == TargetShape.REPOSITORY && segments.size() >= 3 && segments.get(0).equalsIgnoreCase("repos")) {
            String owner = segments.get(1);
            String repo = segments.get(2);
            String filePath = null;
            String branch = null;
            if (segments.size() > 4 && segments.get(3).equalsIgnoreCase("contents")) {
                filePath = String.join("/", segments.subList(4, segments.size()));
                branch = text(arguments, "branch");
            } else if (segments.size() > 6 && segments.get(3).equalsIgnoreCase("git") && segments.get(4).equalsIgnoreCase("refs")
                    && segments.get(5).equalsIgnoreCase("heads")) {
                branch = String.join("/", segments.subList(6, segments.size()));
            } else if (segments.size() == 4 && segments.get(3).equalsIgnoreCase("pulls")) {
                branch = text(arguments, "base");
            }
            return new TargetFacts(owner, repo, branch, filePath, null, null, null);
        }
        if (shape == TargetShape.TEAM && arguments != null && arguments.path("input").isObject()) {
            return new TargetFacts(null, null, null, null, text(arguments.path("input"), "teamId"), null, null);
        }
        return null;
    }

    /** The command's condition inputs: the arguments, the request, the target with what the lookups found. */
    static ConditionInputs inputs(ConditionArguments arguments, Tool tool, HttpMethod method, UpstreamPath path, byte[] body,
                                  boolean graphQl, ConditionLookups.Found found) {
        JsonNode args = arguments(body, graphQl);
        TargetFacts fromRequest = target(tool, path, args);
        TargetFacts looked = found.facts();
        TargetFacts target = fromRequest;
        if (looked != null) {
            TargetFacts base = fromRequest == null ? TargetFacts.NONE : fromRequest;
            target = new TargetFacts(first(base.owner(), looked.owner()), first(base.repo(), looked.repo()),
                    first(looked.branch(), base.branch()), first(base.path(), looked.path()), first(looked.team(), base.team()),
                    first(base.organization(), looked.organization()), looked.labels() != null ? looked.labels() : base.labels());
        }
        return arguments.inputs(args, request(method, path, body, graphQl), target, found.unresolved());
    }

    private static String first(String a, String b) {
        return a != null ? a : b;
    }

    private static String text(JsonNode object, String field) {
        JsonNode value = object == null ? null : object.get(field);
        return value != null && value.isString() ? value.stringValue() : null;
    }

    private static JsonNode json(byte[] body) {
        if (body == null || body.length == 0) {
            return null;
        }
        try {
            return IngressJson.REQUESTS.readTree(body);
        } catch (JacksonException e) {
            return null;
        }
    }

    /** The query as forwarded, decoded: each name with its values in order. */
    private static Map<String, List<String>> query(String raw) {
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        for (String pair : raw.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
        }
        return query;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }
}
