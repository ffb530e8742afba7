package io.agentgateway.toolproxy;

import io.agentgateway.classification.GraphQlActions;
import io.agentgateway.classification.GraphQlOperation;
import io.agentgateway.classification.ToolProfile.FactLookup;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.egress.EgressClients;
import io.agentgateway.actiongate.callview.ConditionInputProperties;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.heldcall.UpstreamTarget;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.condition.TargetFacts;
import io.netty.channel.ChannelOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.http.client.ReactorResourceFactory;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * The facts a listed rule needs that a proxied request does not carry (docs/policies.md, "Lookups"), looked up with
 * the workspace's own connection before the request is decided, and put in the command (so replay decides the same):
 * a code host {@code pull_request.merge} ({@code PUT /repos/o/r/pulls/N/merge}) names no base branch, so
 * {@code GET /repos/o/r/pulls/N} gives {@code base.ref} and the labels; an issue tracker {@code issueDelete} carries no
 * labels, so the issue's labels and team are asked for. Nothing else is looked up, and only for a workspace with an
 * enabled policy whose condition reads {@code target} ({@link TargetConditions}).
 *
 * <p>One request, through the egress policy (every address it connects to) within
 * {@code gateway.conditions.lookup-timeout}, read-only, with the connection this instance holds (the decision itself
 * is made on the stream's current one). Whatever fails (no usable connection, an error status, a timeout, an egress
 * refusal, an answer without the fact) leaves the fact absent and names it unresolved: a condition reading it fails
 * closed. Never an error to the caller: the request is then decided, not refused.
 */
@Component
class ConditionLookups {
    private static final Logger log = LoggerFactory.getLogger(ConditionLookups.class);
    static final String ISSUE_LABELS_QUERY =
            "query GatewayPolicyFacts($id: String!) { issue(id: $id) { labels { nodes { name } } team { key } } }";

    /** What a lookup found (raw target facts to add) and what it could not establish. */
    record Found(TargetFacts facts, List<String> unresolved) {
        static final Found NOTHING = new Found(null, List.of());
    }

    private final ConnectionAccess access;
    private final ProxyTargets targets;
    private final TargetConditions conditions;
    private final WebClient client;
    private final Duration timeout;

    ConditionLookups(ConnectionAccess access, ProxyTargets targets, TargetConditions conditions, ReactorResourceFactory resources,
                     EgressClients egress, ConditionInputProperties properties) {
        this.access = access;
        this.conditions = conditions;
        this.targets = targets;
        this.timeout = properties.lookupTimeout();
        this.client = WebClient.builder()
                .clientConnector(new ReactorClientHttpConnector(resources, http -> egress.apply(http)
                        .disableRetry(true)
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                        .responseTimeout(timeout)))
                .codecs(codecs -> codecs.defaultCodecs().maxInMemorySize(1024 * 1024))
                .build();
    }

    /** The facts the request needs looked up, or {@link Found#NOTHING} for a request that needs none. */
    Mono<Found> lookUp(UUID workspaceId, Tool tool, ProxyAction action, UpstreamPath path, byte[] body, Actor actor,
                       String correlationId) {
        if (!needsLookup(tool, action)) {
            return Mono.just(Found.NOTHING);
        }
        // only for a workspace with a condition on target: the others' upstreams get nothing more
        return conditions.readTarget(workspaceId).flatMap(needed -> needed
                ? lookUp(new Asker(workspaceId, actor, correlationId), tool, action, path, body)
                : Mono.just(Found.NOTHING));
    }

    private static boolean needsLookup(Tool tool, ProxyAction action) {
        return ToolProfiles.of(tool).lookupFor(action.action()).isPresent();
    }

    /** Who asks: the workspace, and the caller whose key the stream checks when this instance holds no usable connection. */
    private record Asker(UUID workspaceId, Actor actor, String correlationId) {}

    private Mono<Found> lookUp(Asker workspaceId, Tool tool, ProxyAction action, UpstreamPath path, byte[] body) {
        FactLookup lookup = ToolProfiles.of(tool).lookupFor(action.action()).orElse(null);
        if (lookup == FactLookup.PULL_REQUEST_BASE) {
            List<String> segments = path.segments();
            if (segments.size() == 6 && segments.get(3).equalsIgnoreCase("pulls")) {
                String pull = "/repos/" + segments.get(1) + "/" + segments.get(2) + "/pulls/" + segments.get(4);
                return pullRequest(workspaceId, tool, pull);
            }
            return Mono.just(new Found(null, List.of("target.branch")));
        }
        if (lookup == FactLookup.ISSUE_LABELS) {
            try {
                GraphQlOperation operation = GraphQlActions.describe(IngressJson.REQUESTS.readTree(body));
                String id = operation.rootFieldIds().get("issueDelete");
                if (id != null) {
                    return issue(workspaceId, tool, id);
                }
            } catch (RuntimeException unreadable) {
                // classified already; an id we cannot read is a fact we cannot look up
            }
            return Mono.just(new Found(null, List.of("target.labels", "target.team")));
        }
        return Mono.just(Found.NOTHING);
    }

    private Mono<Found> pullRequest(Asker workspaceId, Tool tool, String pullPath) {
        List<String> wanted = List.of("target.branch", "target.labels");
        return call(workspaceId, tool, target -> client.get()
                        .uri(target.resolve(pullPath, null))
                        .headers(headers -> {
                            headers.set("Accept", "application/vnd.github+json");
                            headers.set("User-Agent", "service/1.0");
                            target.applyTo(headers);
                        }), wanted)
                .map(json -> {
                    JsonNode base = json.path("base").get("ref");
                    String branch = base != null && base.isString() ? base.stringValue() : null;
                    List<String> labels = names(json.get("labels"));
                    List<String> unresolved = new ArrayList<>();
                    if (branch == null) {
                        unresolved.add("target.branch");
                    }
                    if (labels == null) {
                        unresolved.add("target.labels");
                    }
                    return new Found(new TargetFacts(null, null, branch, null, null, null, labels), unresolved);
                })
                .defaultIfEmpty(new Found(null, wanted));
    }

    private Mono<Found> issue(Asker workspaceId, Tool tool, String issueId) {
        List<String> wanted = List.of("target.labels", "target.team");
        byte[] query = IngressJson.RESPONSES.writeValueAsBytes(Map.of("query", ISSUE_LABELS_QUERY,
                "operationName", "GatewayPolicyFacts", "variables", Map.of("id", issueId)));
        return call(workspaceId, tool, target -> client.post()
                        .uri(target.resolve(ProxyClassifier.GRAPHQL_PATH, null))
                        .contentType(MediaType.APPLICATION_JSON)
                        .headers(target::applyTo)
                        .bodyValue(query), wanted)
                .map(json -> {
                    JsonNode issue = json.path("data").path("issue");
                    List<String> labels = issue.isObject() ? names(issue.path("labels").get("nodes")) : null;
                    JsonNode key = issue.path("team").get("key");
                    String team = key != null && key.isString() ? key.stringValue() : null;
                    List<String> unresolved = new ArrayList<>();
                    if (labels == null) {
                        unresolved.add("target.labels");
                    }
                    if (team == null) {
                        unresolved.add("target.team");
                    }
                    return new Found(new TargetFacts(null, null, null, null, team, null, labels), unresolved);
                })
                .defaultIfEmpty(new Found(null, wanted));
    }

    /** One request with the workspace's connection: its JSON answer, or empty for anything but a 2xx JSON answer in time. */
    private Mono<JsonNode> call(Asker asker, Tool tool,
                                Function<UpstreamTarget, WebClient.RequestHeadersSpec<?>> request,
                                List<String> wanted) {
        return connection(asker, tool)
                .flatMap(target -> request.apply(target).retrieve().bodyToMono(byte[].class))
                .timeout(timeout.plusMillis(250))
                .map(bytes -> IngressJson.REQUESTS.readTree(bytes))
                .onErrorResume(failure -> {
                    // the fact stays absent: a condition reading it fails closed (docs/policies.md, "Lookups")
                    log.info("policy fact lookup on {} failed ({}): {} left unresolved", tool.wire(),
                            failure.getClass().getSimpleName(), wanted);
                    return Mono.empty();
                });
    }

    /**
     * The connection this instance holds; when it holds none it can use, the stream's current one, asked as the
     * decision itself would ask before a 409 (which also checks the caller's key and proxy scope, in log order).
     */
    private Mono<UpstreamTarget> connection(Asker asker, Tool tool) {
        return Mono.defer(() -> {
            try {
                return Mono.just(targets.require(asker.workspaceId(), tool, access.known(asker.workspaceId(), tool).connection()).upstream());
            } catch (ApiException notUsableHere) {
                return access.authorize(asker.workspaceId(), asker.correlationId(), asker.actor(), Scope.PROXY, tool)
                        .map(known -> targets.require(asker.workspaceId(), tool, known.connection()).upstream());
            }
        });
    }

    private static List<String> names(JsonNode labels) {
        if (labels == null || !labels.isArray()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (JsonNode label : labels) {
            JsonNode name = label.isObject() ? label.get("name") : label;
            if (name != null && name.isString()) {
                names.add(name.stringValue());
            }
        }
        return names;
    }
}
