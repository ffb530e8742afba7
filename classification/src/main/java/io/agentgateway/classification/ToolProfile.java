package io.agentgateway.classification;

import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.PlainSecret;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the gateway knows about one tool, in one place: how agents reach it, how its risk is classified, how
 * the proxy presents its credential and its errors, how its OAuth app and its webhooks look, and which fields
 * its connection takes. Plain data plus the per-tool classifiers it names (no Spring, no Kafka), so that the
 * decision core and every entry point read the same profile; {@link ToolProfiles} holds one per {@link Tool}.
 * What needs an ingress module's own types (an {@code ApiKeyScheme}, a webhook format class, an error body) is a
 * small value here that the module maps at its edge.
 *
 * @param tool                     the tool this profile describes
 * @param displayName              how texts for people name it ("the code host's token endpoint ...")
 * @param door                     where agents reach it: the proxy or the MCP gate
 * @param riskTable                the action table that classifies its risk on the server, whatever the caller said
 *                                 (spec 4.1, 4.5); empty: the caller's level stands
 * @param proxy                    how the proxy serves it (present exactly when {@code door} is the proxy)
 * @param oauth                    its OAuth app, when its token is obtained by OAuth
 * @param webhooks                 how it sends webhooks, when it does
 * @param connectionFields         the tool-specific fields its connection takes; any other tool's are refused
 * @param requiredConnectionFields those of them a connection must have
 * @param targetShape              what its actions act on, as a policy condition's {@code target} sees it
 * @param factLookups              per action, a fact a policy condition may need that the request does not carry, which
 *                                 the proxy looks up with the connection before the decision
 */
public record ToolProfile(
        Tool tool,
        String displayName,
        Door door,
        Optional<Map<String, RiskLevel>> riskTable,
        Optional<Proxied> proxy,
        Optional<OAuth> oauth,
        Optional<Webhooks> webhooks,
        Set<ConnectionField> connectionFields,
        Set<ConnectionField> requiredConnectionFields,
        TargetShape targetShape,
        Map<String, FactLookup> factLookups) {

    public ToolProfile {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(displayName, "displayName");
        if ((door == Door.PROXY) != proxy.isPresent()) {
            throw new IllegalArgumentException(tool.wire() + ": a proxied tool has proxy settings, and only it");
        }
        if (proxy.map(p -> !p.classifiedByConnectionRules()).orElse(false) && riskTable.isEmpty()) {
            throw new IllegalArgumentException(tool.wire() + ": a tool classified by fixed tables needs its risk table");
        }
        if (!connectionFields.containsAll(requiredConnectionFields)) {
            throw new IllegalArgumentException(tool.wire() + ": a required connection field must be one it takes");
        }
        Objects.requireNonNull(targetShape, "targetShape");
        factLookups = Map.copyOf(factLookups);
        connectionFields = Collections.unmodifiableSet(copy(connectionFields));
        requiredConnectionFields = Collections.unmodifiableSet(copy(requiredConnectionFields));
    }

    /** Where agents reach a tool. */
    public enum Door {
        /** {@code /functions/v1/gateway-proxy/<tool>/...} (spec 4.5) */
        PROXY,
        /** the MCP gate ({@code /functions/v1/mcp-gate}, spec 4.3) */
        MCP_GATE
    }

    /** The forms of an agent's API key a tool's own SDK sends (mapped to the HTTP edge's {@code ApiKeyScheme}). */
    public enum KeyForm {
        /** {@code Authorization: Bearer <key>} (spec 5, every tool) */
        BEARER,
        /** {@code Authorization: token <key>} (the code host's clients) */
        TOKEN,
        /** {@code Authorization: <key>}, the whole value (the issue tracker's API keys) */
        RAW
    }

    /** What a tool's actions act on, as policy conditions read it ({@code target}, normalized by the decision core). */
    public enum TargetShape {
        /** nothing the gateway knows the shape of: conditions read {@code args} */
        NONE,
        /** a repository: {@code owner}, {@code repo}, {@code branch}, {@code path}, {@code labels} */
        REPOSITORY,
        /** a team's issues: {@code team}, {@code organization}, {@code labels} */
        TEAM
    }

    /** A fact a condition may need that a request does not carry, looked up with the workspace's connection. */
    public enum FactLookup {
        /** the pull request's base branch and labels ({@code GET /repos/o/r/pulls/N}): a merge does not name them */
        PULL_REQUEST_BASE,
        /** the issue's labels and team (a GraphQL query): a delete names only the issue's id */
        ISSUE_LABELS
    }

    /** The lookup an action of this tool needs before it is decided, if any. */
    public Optional<FactLookup> lookupFor(String action) {
        return Optional.ofNullable(factLookups.get(action));
    }

    /** How a tool's SDK reads an error (mapped to the proxy's error bodies). */
    public enum ErrorDialect {
        /** {@code {message, documentation_url}} */
        REST,
        /** {@code {data:null, errors:[{message, extensions}]}} */
        GRAPHQL
    }

    public boolean proxied() {
        return proxy.isPresent();
    }

    public boolean sendsWebhooks() {
        return webhooks.isPresent();
    }

    public boolean connectsByOAuth() {
        return oauth.isPresent();
    }

    /** Whether its requests are classified by its connection's {@code config.rules} (no fixed tables). */
    public boolean classifiedByConnectionRules() {
        return proxy.map(Proxied::classifiedByConnectionRules).orElse(false);
    }

    public boolean takes(ConnectionField field) {
        return connectionFields.contains(field);
    }

    /**
     * How the proxy serves a tool.
     *
     * @param restTable           its REST API's fixed table (spec 4.5), if it has one
     * @param graphQl             its GraphQL API's mutations, if it has one: at {@code /graphql} beside a REST table,
     *                            else the only endpoint ({@code POST /graphql})
     * @param caseInsensitiveRoutes whether the upstream routes paths case-insensitively (then they are matched in
     *                            lower case: {@code PUT /Repos/o/r/Pulls/7/Merge} merges)
     * @param credential          the headers the gateway adds with the connection's token
     * @param keyForms            the forms of the agent's key its path takes
     * @param errorDialect        how its errors are written
     * @param defaultBaseUrl      where calls go when the connection names no {@code base_url} (an operator's
     *                            {@code gateway.proxy.default-base-urls.<tool>} comes first)
     * @param base64FileContents  whether its writes carry a file base64-encoded in {@code content} (the code host's
     *                            contents API), which reviewers are shown decoded
     */
    public record Proxied(
            Optional<RestActionTable> restTable,
            Optional<GraphQlMutations> graphQl,
            boolean caseInsensitiveRoutes,
            Credential credential,
            Set<KeyForm> keyForms,
            ErrorDialect errorDialect,
            Optional<String> defaultBaseUrl,
            boolean base64FileContents) {

        public Proxied {
            Objects.requireNonNull(credential, "credential");
            Objects.requireNonNull(errorDialect, "errorDialect");
            if (!keyForms.contains(KeyForm.BEARER)) {
                throw new IllegalArgumentException("every proxied tool takes a Bearer key (spec 5)");
            }
            keyForms = Collections.unmodifiableSet(EnumSet.copyOf(keyForms));
        }

        /** No fixed table: the connection's {@code config.rules}, else the safe defaults, classify its requests. */
        public boolean classifiedByConnectionRules() {
            return restTable.isEmpty() && graphQl.isEmpty();
        }
    }

    /**
     * The headers the gateway adds for a tool's upstream, replacing the agent's.
     *
     * @param authorizationScheme the scheme of {@code Authorization: <scheme> <token>} (sent when there is a token)
     * @param fixedHeaders        headers sent with every call, in order
     * @param tokenRequired       whether the proxy refuses to call the tool without a stored token
     */
    public record Credential(String authorizationScheme, Map<String, String> fixedHeaders, boolean tokenRequired) {

        public Credential {
            fixedHeaders = Collections.unmodifiableMap(new LinkedHashMap<>(fixedHeaders));
        }

        /** {@code Authorization: Bearer <token>} when there is one; calls without a token are allowed. */
        public static Credential bearer() {
            return new Credential("Bearer", Map.of(), false);
        }

        /** The headers for a call with {@code token} (or none): {@code Authorization} first, then the fixed ones. */
        public Map<String, String> headers(PlainSecret token) {
            Map<String, String> headers = new LinkedHashMap<>();
            if (token != null) {
                headers.put("Authorization", authorizationScheme + " " + token.reveal());
            }
            headers.putAll(fixedHeaders);
            return headers;
        }
    }

    /**
     * A tool whose access token is obtained by OAuth (spec section 2, 4.7).
     *
     * @param callbackPath the upstream's redirect back to the gateway
     * @param settingsKey  its app's settings, {@code gateway.oauth.<settingsKey>.*}
     * @param authorizeUrl the real upstream's authorization page, unless configured
     * @param tokenUrl     the real upstream's token endpoint, unless configured
     * @param scopes       the {@code scope} sent, unless configured (as the upstream separates them)
     */
    public record OAuth(String callbackPath, String settingsKey, String authorizeUrl, String tokenUrl, String scopes) {}

    /**
     * A tool that sends webhooks (spec sections 4.6, 5, 6).
     *
     * @param path      the gateway's endpoint for its deliveries
     * @param signature the header of the HMAC-SHA256 signature
     * @param delivery  the header of the delivery id
     * @param event     the header of the event kind
     * @param watch     which connections a payload belongs to ({@link WebhookWatch})
     */
    public record Webhooks(String path, HeaderNames signature, HeaderNames delivery, HeaderNames event,
                           WebhookWatch.Rule watch) {}

    /** A header under the spec's neutral name, also accepted under the real vendor's. */
    public record HeaderNames(String neutral, String vendor) {}

    public static Builder of(Tool tool, String displayName) {
        return new Builder(tool, displayName);
    }

    /** Reads like a table row in {@link ToolProfiles}. */
    public static final class Builder {
        private final Tool tool;
        private final String displayName;
        private Door door = Door.PROXY;
        private Map<String, RiskLevel> riskTable;
        private RestActionTable restTable;
        private GraphQlMutations graphQl;
        private boolean caseInsensitiveRoutes;
        private Credential credential = Credential.bearer();
        private Set<KeyForm> keyForms = EnumSet.of(KeyForm.BEARER);
        private ErrorDialect errorDialect = ErrorDialect.REST;
        private String defaultBaseUrl;
        private boolean base64FileContents;
        private OAuth oauth;
        private Webhooks webhooks;
        private Set<ConnectionField> connectionFields = Set.of();
        private Set<ConnectionField> requiredConnectionFields = Set.of();
        private TargetShape targetShape = TargetShape.NONE;
        private final Map<String, FactLookup> factLookups = new LinkedHashMap<>();

        private Builder(Tool tool, String displayName) {
            this.tool = tool;
            this.displayName = displayName;
        }

        public Builder servedByTheMcpGate() {
            this.door = Door.MCP_GATE;
            return this;
        }

        public Builder riskTable(Map<String, RiskLevel> table) {
            this.riskTable = table;
            return this;
        }

        public Builder restTable(RestActionTable table) {
            this.restTable = table;
            return this;
        }

        public Builder graphQl(GraphQlMutations mutations) {
            this.graphQl = mutations;
            return this;
        }

        public Builder caseInsensitiveRoutes() {
            this.caseInsensitiveRoutes = true;
            return this;
        }

        public Builder credential(Credential credential) {
            this.credential = credential;
            return this;
        }

        public Builder keyForms(KeyForm... forms) {
            this.keyForms = EnumSet.copyOf(Arrays.asList(forms));
            return this;
        }

        public Builder errorDialect(ErrorDialect dialect) {
            this.errorDialect = dialect;
            return this;
        }

        public Builder defaultBaseUrl(String url) {
            this.defaultBaseUrl = url;
            return this;
        }

        public Builder base64FileContents() {
            this.base64FileContents = true;
            return this;
        }

        public Builder oauth(OAuth oauth) {
            this.oauth = oauth;
            return this;
        }

        public Builder webhooks(Webhooks webhooks) {
            this.webhooks = webhooks;
            return this;
        }

        public Builder connection(ConnectionField... fields) {
            this.connectionFields = copy(Set.of(fields));
            return this;
        }

        public Builder requires(ConnectionField... fields) {
            this.requiredConnectionFields = copy(Set.of(fields));
            return this;
        }

        public Builder target(TargetShape shape) {
            this.targetShape = shape;
            return this;
        }

        /** Before {@code action} is decided, the proxy looks up {@code lookup}'s fact when a condition reads it. */
        public Builder looksUp(String action, FactLookup lookup) {
            this.factLookups.put(action, lookup);
            return this;
        }

        public ToolProfile build() {
            Optional<Proxied> proxy = door == Door.PROXY
                    ? Optional.of(new Proxied(Optional.ofNullable(restTable), Optional.ofNullable(graphQl),
                            caseInsensitiveRoutes, credential, keyForms, errorDialect, Optional.ofNullable(defaultBaseUrl),
                            base64FileContents))
                    : Optional.empty();
            return new ToolProfile(tool, displayName, door,
                    Optional.ofNullable(riskTable).map(Map::copyOf), proxy, Optional.ofNullable(oauth),
                    Optional.ofNullable(webhooks), connectionFields, requiredConnectionFields, targetShape, factLookups);
        }
    }

    private static Set<ConnectionField> copy(Set<ConnectionField> fields) {
        return fields.isEmpty() ? EnumSet.noneOf(ConnectionField.class) : EnumSet.copyOf(fields);
    }
}
