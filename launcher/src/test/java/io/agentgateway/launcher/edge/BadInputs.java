package io.agentgateway.launcher.edge;

import io.agentgateway.httpedge.auth.ApiKeys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/**
 * The bad-input suite's table: every endpoint of the gateway, and for each the inputs an outside tester
 * tries (wrong methods and credentials, malformed and unacceptable media types, broken and mistyped bodies,
 * over-long strings, bad path and query parameters, declared bodies over the limit), each with the statuses
 * the API documents for it. Generated from a fixed seed, so a failing case can be run again by its name.
 * No case is a valid request: none may change the gateway's state.
 */
final class BadInputs {
    /** The statuses a bad input may get at all (spec 7 and the module READMEs); anything else fails the suite. */
    static final Set<Integer> DOCUMENTED = Set.of(400, 401, 403, 404, 405, 406, 408, 409, 413, 414, 415, 429, 431, 503, 504);
    static final Set<Integer> BAD_REQUEST = Set.of(400);

    /** How an endpoint answers a bad input: the JSON error body, or (the MCP gate's JSON-RPC) an error object. */
    enum Answer { JSON_ERROR, JSON_RPC_ERROR }

    /** One generated input. {@code headers} may repeat a name (a list of values). */
    record Case(String name, String method, String path, List<String[]> headers, byte[] body, Set<Integer> expected,
                Answer answer) {
        @Override
        public String toString() {
            return name + " (" + method + " " + (path.length() > 120 ? path.substring(0, 120) + "…" : path) + ")";
        }
    }

    /** The credentials and ids the cases use: a workspace of their own, its owner, a stranger, a key of every scope. */
    record Fixture(String workspaceId, String ownerJwt, String strangerJwt, String expiredJwt, String apiKey,
                   String operatorJwt) {}

    private enum Auth { KEY, JWT, OPERATOR, NONE }

    /** One route: its method(s), a path (with ids of the fixture), who calls it, and the body it takes. */
    private record Route(String name, String method, String path, Auth auth, Map<String, Object> body, Answer answer,
                         Set<String> otherMethods) {}

    private static final List<String> MALFORMED_CONTENT_TYPES = List.of("application/json; charset=nope", ";;;", "a b",
            "application/", "application/json, text/plain", "/json", "application/json; =x", "text/", "application/json;charset=",
            "*/json; q=1", "application/json; charset=\"unterminated", "{}", "application/json\tx");
    private static final List<String> MALFORMED_ACCEPTS = List.of("a b", ";;;", "text/event-stream; q=nope", "application/",
            "application/json; q=2x", "/", "text/html;q=", "application/json, ;", "text/");
    private static final List<String> BAD_BEARERS = List.of("", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearer agk_short",
            "Bearer agk_" + "A".repeat(22) + "_" + "B".repeat(43) + "!", "bearer a b", "Bearer " + "x".repeat(5000),
            "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.", "Token abc");
    private static final List<String> BAD_UUIDS = List.of("not-a-uuid", "1-1-1-1-1", "00000000-0000-0000-0000-00000000000g",
            "%00", "..%2F..%2Fetc", "%E2%80%AE", "x".repeat(300), "00000000000000000000000000000000", "' or 1=1 --");
    private static final List<String> BAD_BODIES = List.of("{", "}", "[]", "[1,2]", "\"text\"", "42", "null", "true",
            "{\"a\":1}{\"b\":2}", "{\"a\":1,\"a\":2}", "{'single':'quotes'}", "{\"a\":}", "{\"a\":1,}", "\u0000", "{\"a\":\"\u0001\"",
            "[".repeat(3000) + "]".repeat(3000), "{\"a\":" + "[".repeat(2000) + "]".repeat(2000) + "}", "\uFEFF{}x",
            "{\"a\":NaN}", "{\"a\":1e999999}");

    private final Fixture fixture;
    private final Random random = new Random(14);
    private final List<Case> cases = new ArrayList<>();

    private BadInputs(Fixture fixture) {
        this.fixture = fixture;
    }

    static List<Case> generate(Fixture fixture) {
        BadInputs inputs = new BadInputs(fixture);
        inputs.routes().forEach(inputs::forRoute);
        inputs.proxyCases();
        inputs.webhookCases();
        inputs.mcpCases();
        inputs.oauthCases();
        inputs.unknownPaths();
        return List.copyOf(inputs.cases);
    }

    private List<Route> routes() {
        String ws = "/admin/v1/workspaces/" + fixture.workspaceId();
        String missing = UUID.randomUUID().toString();
        List<Route> routes = new ArrayList<>();
        routes.add(new Route("evaluate", "POST", "/functions/v1/evaluate-action", Auth.KEY,
                map("tool", "docs", "action", "page.read", "riskLevel", "low", "agentId", "suite", "agentName", "suite",
                        "resourceType", "page", "resourceId", "1", "requestedBy", "suite", "payload", Map.of("x", 1)),
                Answer.JSON_ERROR, Set.of("GET", "PUT", "DELETE", "PATCH")));
        routes.add(new Route("kill-switch", "POST", "/functions/v1/kill-switch", Auth.JWT,
                map("workspaceId", fixture.workspaceId(), "action", "pause_tool", "tool", "docs"), Answer.JSON_ERROR,
                Set.of("GET", "PUT", "DELETE")));
        routes.add(new Route("status", "GET", "/functions/v1/mcp-gate/status/" + missing, Auth.KEY, null, Answer.JSON_ERROR,
                Set.of("POST", "PUT", "DELETE")));
        routes.add(new Route("workspaces", "POST", "/admin/v1/workspaces", Auth.OPERATOR, map("name", "suite", "ownerUserId", "suite-owner"), Answer.JSON_ERROR,
                Set.of("PUT", "DELETE", "PATCH")));
        routes.add(new Route("policies.create", "POST", ws + "/policies", Auth.JWT,
                map("name", "p", "priority", 1, "enabled", true, "decision", "block", "description", "d",
                        "match", map("tools", List.of("docs"), "actions", List.of("a.*"), "riskLevels", List.of("low"),
                                "agentIds", List.of("a"), "resourceTypes", List.of("r"), "resourceIds", List.of("1"),
                                "sources", List.of("evaluate"))),
                Answer.JSON_ERROR, Set.of("DELETE", "PATCH")));
        routes.add(new Route("policies.replace", "PUT", ws + "/policies/" + missing, Auth.JWT,
                map("name", "p", "priority", 1, "decision", "allow"), Answer.JSON_ERROR, Set.of("GET", "POST", "PATCH")));
        routes.add(new Route("defaults", "PUT", ws + "/defaults", Auth.JWT,
                map("decisions", map("low", "allow", "high", "block"), "approvalTtl", "PT1H"), Answer.JSON_ERROR,
                Set.of("POST", "DELETE")));
        routes.add(new Route("api-keys", "POST", ws + "/api-keys", Auth.JWT,
                map("name", "k", "scopes", List.of("evaluate"), "expiresAt", "2099-01-01T00:00:00Z"), Answer.JSON_ERROR,
                Set.of("PUT", "DELETE")));
        routes.add(new Route("members", "PUT", ws + "/members/user-" + missing, Auth.JWT,
                map("email", "a@b.test", "role", "admin"), Answer.JSON_ERROR, Set.of("GET", "POST")));
        routes.add(new Route("notification-settings", "PUT", ws + "/notification-settings", Auth.JWT,
                map("chatWebhookUrl", "https://chat.example/hook", "emailEnabled", true), Answer.JSON_ERROR, Set.of("POST", "DELETE")));
        routes.add(new Route("tools.put", "PUT", ws + "/tools/code_host", Auth.JWT,
                map("config", map("repos", List.of("acme/api"), "org", "acme"), "base_url", "https://api.example",
                        "webhook_secret", "s"), Answer.JSON_ERROR, Set.of("POST", "PATCH")));
        routes.add(new Route("tools.mcp", "PUT", ws + "/tools/mcp", Auth.JWT,
                map("mcp_server_url", "https://mcp.example/mcp", "mcp_transport", "http", "mcp_auth_type", "bearer"),
                Answer.JSON_ERROR, Set.of("POST", "PATCH")));
        routes.add(new Route("approve", "POST", ws + "/approvals/" + missing + "/approve", Auth.JWT, map("reason", "ok"),
                Answer.JSON_ERROR, Set.of("GET", "PUT", "DELETE")));
        routes.add(new Route("reject", "POST", ws + "/approvals/" + missing + "/reject", Auth.JWT, map("reason", "no"),
                Answer.JSON_ERROR, Set.of("GET", "PUT")));
        routes.add(new Route("backtests", "POST", ws + "/backtests", Auth.JWT,
                map("policies", List.of(map("name", "p", "priority", 1, "decision", "block")), "from", "2030-01-01T00:00:00Z",
                        "to", "2030-01-02T00:00:00Z"), Answer.JSON_ERROR, Set.of("GET", "PUT")));
        for (String read : List.of("/policies", "/defaults", "/api-keys", "/members", "/notification-settings", "/kill-switch",
                "/audit-log", "/tools", "/tools/docs", "/approvals")) {
            routes.add(new Route("read" + read.replace('/', '.'), "GET", ws + read, Auth.JWT, null, Answer.JSON_ERROR,
                    Set.of("PATCH")));
        }
        routes.add(new Route("audit-export", "GET", ws + "/audit-log/export?from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z",
                Auth.JWT, null, Answer.JSON_ERROR, Set.of("POST", "DELETE")));
        routes.add(new Route("api-keys.revoke", "DELETE", ws + "/api-keys/" + missing, Auth.JWT, null, Answer.JSON_ERROR,
                Set.of("GET", "POST")));
        routes.add(new Route("webhook-secret", "POST", ws + "/tools/docs/webhook-secret", Auth.JWT, null, Answer.JSON_ERROR,
                Set.of("GET", "PUT")));
        return routes;
    }

    private void forRoute(Route route) {
        String who = switch (route.auth) {
            case KEY -> fixture.apiKey();
            case JWT -> fixture.ownerJwt();
            case OPERATOR -> fixture.operatorJwt();
            case NONE -> null;
        };
        // wrong methods
        for (String method : route.otherMethods) {
            add(route.name + " method " + method, method, route.path, auth(who), route.body == null ? null : json(route.body),
                    Set.of(405), route.answer);
        }
        // credentials: none, malformed, expired, made up, another workspace's user
        if (route.auth != Auth.NONE) {
            add(route.name + " no credential", route.method, route.path, List.of(), body(route), Set.of(401), route.answer);
            for (String bad : BAD_BEARERS) {
                add(route.name + " authorization '" + abbreviate(bad) + "'", route.method, route.path,
                        List.<String[]>of(new String[] {"Authorization", bad}), body(route), Set.of(401), route.answer);
            }
            String other = route.auth == Auth.KEY ? ApiKeys.generate(UUID.fromString(fixture.workspaceId())) : fixture.expiredJwt();
            add(route.name + " made-up or expired credential", route.method, route.path, auth(other), body(route),
                    Set.of(401), route.answer);
            if (route.auth == Auth.JWT && route.path.startsWith("/admin/v1/workspaces/")) {
                add(route.name + " a stranger", route.method, route.path, auth(fixture.strangerJwt()), body(route),
                        Set.of(400, 403, 404), route.answer);
            }
        }
        // media types: a malformed Content-Type is 415 on every endpoint, a repeated one 400; a malformed Accept 400
        for (String type : MALFORMED_CONTENT_TYPES) {
            add(route.name + " content-type '" + type + "'", route.method, route.path,
                    with(auth(who), "Content-Type", type), body(route), Set.of(415), route.answer);
        }
        add(route.name + " content-type twice", route.method, route.path,
                with(with(auth(who), "Content-Type", "application/json"), "Content-Type", "text/plain"), body(route),
                BAD_REQUEST, route.answer);
        for (String accept : MALFORMED_ACCEPTS) {
            add(route.name + " accept '" + accept + "'", route.method, route.path, with(auth(who), "Accept", accept),
                    body(route), BAD_REQUEST, route.answer);
        }
        if (!route.path.contains("/audit-log/export") && !route.path.endsWith("/backtests")) {
            add(route.name + " accept text/html only", route.method, route.path, with(auth(who), "Accept", "text/html"),
                    body(route), Set.of(406), route.answer);
        }
        if (route.body != null) {
            bodyCases(route, who);
        }
        queryCases(route, who);
    }

    private void bodyCases(Route route, String who) {
        List<String[]> headers = with(auth(who), "Content-Type", "application/json");
        add(route.name + " text/plain body", route.method, route.path, with(auth(who), "Content-Type", "text/plain"),
                json(route.body), Set.of(415), route.answer);
        add(route.name + " octet-stream body", route.method, route.path, with(auth(who), "Content-Type",
                "application/octet-stream"), json(route.body), Set.of(415), route.answer);
        for (String bad : BAD_BODIES) {
            add(route.name + " body '" + abbreviate(bad) + "'", route.method, route.path, headers,
                    bad.getBytes(StandardCharsets.UTF_8), BAD_REQUEST, route.answer);
        }
        add(route.name + " body not UTF-8", route.method, route.path, headers,
                new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'}, BAD_REQUEST, route.answer);
        add(route.name + " body over the limit (chunked)", route.method, route.path, headers,
                ("{\"x\":\"" + "y".repeat(600_000) + "\"}").getBytes(StandardCharsets.UTF_8), Set.of(413), route.answer);
        if (route.path.startsWith("/admin/")) {
            add(route.name + " unknown field", route.method, route.path, headers,
                    json(merge(route.body, "unexpectedField", "x")), BAD_REQUEST, route.answer);
        }
        // each field in turn: of the wrong type, over its length limit, and (for words) a made-up value
        for (Map.Entry<String, Object> field : route.body.entrySet()) {
            String name = field.getKey();
            for (Object wrong : wrongValuesFor(name, field.getValue())) {
                add(route.name + " " + name + "=" + abbreviate(String.valueOf(wrong)), route.method, route.path, headers,
                        json(merge(route.body, name, wrong)), expectedForWrongValue(route, name), route.answer);
            }
            if (field.getValue() instanceof Map<?, ?> nested && STRUCTURED.contains(name)) {
                for (Map.Entry<?, ?> inner : nested.entrySet()) {
                    for (Object wrong : wrongValuesFor((String) inner.getKey(), inner.getValue())) {
                        Map<String, Object> changed = new LinkedHashMap<>(castMap(nested));
                        changed.put((String) inner.getKey(), wrong);
                        add(route.name + " " + name + "." + inner.getKey() + "=" + abbreviate(String.valueOf(wrong)),
                                route.method, route.path, headers, json(merge(route.body, name, changed)),
                                expectedForWrongValue(route, name), route.answer);
                    }
                }
            }
        }
    }

    /**
     * Fields that take one of a few words or one format (ids, times, durations, URLs): a made-up word is wrong
     * for them. Free text (names, descriptions, agent ids) takes any word, so it only gets wrong types and lengths.
     */
    private static final Set<String> VOCABULARY = Set.of("tool", "riskLevel", "workspaceId", "decision", "role", "scopes",
            "tools", "riskLevels", "sources", "approvalTtl", "expiresAt", "from", "to", "chatWebhookUrl", "mcp_server_url",
            "base_url", "mcp_transport", "mcp_auth_type", "low", "high", "repos");
    /** Objects whose own fields are mutated in turn (not the free-form evaluation payload). */
    private static final Set<String> STRUCTURED = Set.of("match", "decisions", "config");

    /** Values a field cannot take: other JSON types, a string far over every limit, a fuzzed word where words are fixed. */
    private List<Object> wrongValuesFor(String field, Object valid) {
        List<Object> wrong = new ArrayList<>();
        if (valid instanceof String) {
            wrong.add(42);
            wrong.add(List.of("a"));
            wrong.add(Map.of("k", "v"));
            wrong.add("s".repeat(9000 + random.nextInt(1000)));
            if (VOCABULARY.contains(field)) {
                wrong.add(fuzz());
            }
        } else if (valid instanceof Number) {
            wrong.add("1");
            wrong.add(1.5);
            wrong.add(Long.MAX_VALUE);
            wrong.add(List.of(1));
        } else if (valid instanceof Boolean) {
            wrong.add("true");
            wrong.add(1);
        } else if (valid instanceof List<?>) {
            wrong.add("not-a-list");
            wrong.add(List.of(7));
            if (VOCABULARY.contains(field)) {
                wrong.add(List.of(fuzz()));
            }
            wrong.add(List.of("x".repeat(9000)));
        } else if (valid instanceof Map<?, ?>) {
            wrong.add("not-an-object");
            wrong.add(List.of());
            wrong.add(17);
        }
        return wrong;
    }

    /** Fields whose wrong value may pass the syntax check and then be refused by a later one (404, 409, 403). */
    private static Set<Integer> expectedForWrongValue(Route route, String field) {
        if (route.name.equals("approve") || route.name.equals("reject") || route.name.equals("policies.replace")) {
            return Set.of(400, 404, 409);
        }
        if (route.name.equals("kill-switch") && field.equals("workspaceId")) {
            return Set.of(400, 403);
        }
        return BAD_REQUEST;
    }

    /** A made-up word that no field takes: control characters, script, traversal, format strings, emoji. */
    private String fuzz() {
        List<String> pieces = List.of("\u0000", "\r\n", "<script>", "../", "%s%n", "${jndi:ldap://x}", "\u202E", "🙂", "'\"",
                "\\", "{{7*7}}", "=cmd|' /C calc'!A0", "\uFFFF", "NaN");
        StringBuilder word = new StringBuilder("bad");
        int n = 1 + random.nextInt(4);
        for (int i = 0; i < n; i++) {
            word.append(pieces.get(random.nextInt(pieces.size())));
        }
        return word.toString();
    }

    private void queryCases(Route route, String who) {
        String base = route.path.contains("?") ? route.path.substring(0, route.path.indexOf('?')) : route.path;
        if (base.endsWith("/audit-log") || base.endsWith("/audit-log/export")) {
            String range = base.endsWith("/export") ? "from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z&" : "";
            for (String query : List.of("from=%2B999999999-01-01T00:00:00Z", "to=-999999999-01-01T00:00:00Z",
                    "from=2030-13-01T00:00:00Z", "from=yesterday", "limit=0", "limit=-1", "limit=501", "limit=1e3",
                    "limit=abc", "tool=shell", "decision=maybe", "correlationId=not-a-uuid", "cursor=%25%25%25",
                    "cursor=" + java.util.Base64.getUrlEncoder().encodeToString("+999999999-01-01T00:00:00Z|x".getBytes(StandardCharsets.UTF_8)),
                    "format=xlsx", "from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z")) {
                if (query.startsWith("format=") && !base.endsWith("/export") || query.startsWith("limit") && base.endsWith("/export")
                        || query.startsWith("cursor") && base.endsWith("/export")) {
                    continue;
                }
                String q = query.startsWith("from=") || query.startsWith("to=") ? query : range + query;
                add(route.name + " query " + q, "GET", base + "?" + q, auth(who), null, BAD_REQUEST, route.answer);
            }
        }
        if (base.endsWith("/approvals")) {
            for (String query : List.of("status=maybe", "limit=0", "limit=100000", "limit=x", "status=" + "p".repeat(3000))) {
                add(route.name + " query " + abbreviate(query), "GET", base + "?" + query, auth(who), null, BAD_REQUEST, route.answer);
            }
            add(route.name + " request line over 4 KiB", "GET", base + "?status=" + "p".repeat(5000), auth(who), null,
                    Set.of(414), route.answer);
        }
        // ids in paths: every route with a uuid in it
        if (base.matches(".*/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}.*")) {
            for (String bad : BAD_UUIDS) {
                String path = base.replaceFirst("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", bad);
                add(route.name + " id '" + abbreviate(bad) + "'", route.method, path, auth(who), body(route),
                        Set.of(400, 401, 403, 404), route.answer);
            }
        }
        if (base.contains("/tools/")) {
            for (String tool : List.of("shell", "CODE_HOST", "code_host%00", "", "..", "mcp%2F..")) {
                add(route.name + " tool '" + tool + "'", route.method, base.replaceFirst("/tools/[a-z_]+", "/tools/" + tool),
                        auth(who), body(route), Set.of(400, 404, 405), route.answer);
            }
        }
    }

    private void proxyCases() {
        String key = fixture.apiKey();
        for (String method : List.of("GET", "POST", "PUT", "DELETE", "PATCH")) {
            add("proxy no key " + method, method, "/functions/v1/gateway-proxy/code_host/repos/a/b", List.of(), null,
                    Set.of(401), Answer.JSON_ERROR);
            add("proxy unknown tool " + method, method, "/functions/v1/gateway-proxy/shell/run", auth(key), null,
                    Set.of(404), Answer.JSON_ERROR);
        }
        for (String path : List.of("/repos/a/../b", "/repos/a/%2e%2e/b", "/repos//b", "/repos/a/b%5C..", "/repos/a/./b",
                "/repos/%2E/b", "/a\\b")) {
            add("proxy path " + path, "GET", "/functions/v1/gateway-proxy/code_host" + path.replace("\\", "%5C"), auth(key), null,
                    Set.of(400), Answer.JSON_ERROR);
        }
        for (String bad : List.of("{", "{\"query\":42}", "{\"query\":\"mutation {\"}", "{\"query\":\"query A{a} query B{b}\"}",
                "{\"query\":\"{a}\",\"variables\":[]}", "{\"query\":\"{a}\",\"operationName\":7}", "[]",
                "{\"query\":\"" + "{a".repeat(3000) + "\"}")) {
            add("proxy graphql '" + abbreviate(bad) + "'", "POST", "/functions/v1/gateway-proxy/issue_tracker/graphql",
                    with(auth(key), "Content-Type", "application/json"), bad.getBytes(StandardCharsets.UTF_8), Set.of(400),
                    Answer.JSON_ERROR);
        }
        add("proxy issue tracker GET", "GET", "/functions/v1/gateway-proxy/issue_tracker/graphql", auth(key), null,
                Set.of(404, 405), Answer.JSON_ERROR);
        for (String type : MALFORMED_CONTENT_TYPES) {
            add("proxy content-type '" + type + "'", "POST", "/functions/v1/gateway-proxy/code_host/repos/a/b/issues",
                    with(auth(key), "Content-Type", type), "{}".getBytes(StandardCharsets.UTF_8), Set.of(415), Answer.JSON_ERROR);
        }
        add("proxy body over the limit", "PUT", "/functions/v1/gateway-proxy/code_host/repos/a/b/contents/f",
                with(auth(key), "Content-Type", "application/octet-stream"), new byte[500_000], Set.of(413), Answer.JSON_ERROR);
    }

    private void webhookCases() {
        for (String path : List.of("/functions/v1/webhook-code-host", "/functions/v1/webhook-issue-tracker")) {
            String name = path.substring(path.lastIndexOf('/') + 1);
            for (String method : List.of("GET", "PUT", "DELETE")) {
                add(name + " method " + method, method, path, List.of(), null, Set.of(405), Answer.JSON_ERROR);
            }
            for (String type : MALFORMED_CONTENT_TYPES) {
                add(name + " content-type '" + type + "'", "POST", path, List.<String[]>of(new String[] {"Content-Type", type}),
                        "{}".getBytes(StandardCharsets.UTF_8), Set.of(415), Answer.JSON_ERROR);
            }
            for (String accept : MALFORMED_ACCEPTS) {
                add(name + " accept '" + accept + "'", "POST", path, List.<String[]>of(new String[] {"Accept", accept},
                        new String[] {"Content-Type", "application/json"}), "{}".getBytes(StandardCharsets.UTF_8), BAD_REQUEST,
                        Answer.JSON_ERROR);
            }
            add(name + " text/plain", "POST", path, List.<String[]>of(new String[] {"Content-Type", "text/plain"}),
                    "{}".getBytes(StandardCharsets.UTF_8), Set.of(415), Answer.JSON_ERROR);
            for (String signature : List.of("", "sha256=", "sha256=zz", "sha1=" + "0".repeat(40), "0".repeat(64), "sha256=" + "0".repeat(64),
                    "sha256=" + "0".repeat(6400))) {
                List<String[]> headers = List.of(new String[] {"Content-Type", "application/json"},
                        new String[] {"X-Hub-Signature-256", signature}, new String[] {"Issue-Tracker-Signature", signature},
                        new String[] {"X-GitHub-Event", "push"}, new String[] {"X-GitHub-Delivery", UUID.randomUUID().toString()});
                // two headers of 6,400 characters: over the 8 KiB of headers, 431
                add(name + " signature '" + abbreviate(signature) + "'", "POST", path, headers,
                        "{\"repository\":{\"full_name\":\"suite/none\"}}".getBytes(StandardCharsets.UTF_8),
                        signature.length() > 4000 ? Set.of(431) : Set.of(400, 401), Answer.JSON_ERROR);
            }
            for (String bad : BAD_BODIES) {
                add(name + " body '" + abbreviate(bad) + "'", "POST", path,
                        List.<String[]>of(new String[] {"Content-Type", "application/json"}), bad.getBytes(StandardCharsets.UTF_8),
                        Set.of(400, 401), Answer.JSON_ERROR);
            }
            add(name + " body over the limit", "POST", path, List.<String[]>of(new String[] {"Content-Type", "application/json"}),
                    new byte[600_000], Set.of(413), Answer.JSON_ERROR);
        }
    }

    private void mcpCases() {
        String gate = "/functions/v1/mcp-gate/sse";
        List<String[]> headers = with(auth(fixture.apiKey()), "Content-Type", "application/json");
        // JSON-RPC: the documented answer to a bad message is a JSON-RPC error (HTTP 200), never a 500
        List<String> messages = new ArrayList<>(List.of("{", "[]", "42", "null", "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + "m".repeat(5000) + "\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":\"" + "i".repeat(5000) + "\",\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":[]}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":42}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"" + "n".repeat(100_000) + "\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":[]}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{\"_risk\":\"extreme\"}}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no/such/method\"}",
                "[" + String.join(",", java.util.Collections.nCopies(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")) + "]"));
        for (int i = 0; i < 20; i++) {
            messages.add("{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"" + fuzz().replace("\"", "").replace("\\", "") + "\"}");
        }
        for (String message : messages) {
            add("mcp message '" + abbreviate(message) + "'", "POST", gate, headers, message.getBytes(StandardCharsets.UTF_8),
                    Set.of(200), Answer.JSON_RPC_ERROR);
        }
        add("mcp no key", "POST", gate, List.<String[]>of(new String[] {"Content-Type", "application/json"}),
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8), Set.of(401), Answer.JSON_ERROR);
        for (String bad : BAD_BEARERS) {
            add("mcp stream authorization '" + abbreviate(bad) + "'", "GET", gate,
                    List.<String[]>of(new String[] {"Authorization", bad}, new String[] {"Accept", "text/event-stream"}), null,
                    Set.of(401), Answer.JSON_ERROR);
        }
        for (String accept : MALFORMED_ACCEPTS) {
            add("mcp stream accept '" + accept + "'", "GET", gate, with(auth(fixture.apiKey()), "Accept", accept), null,
                    BAD_REQUEST, Answer.JSON_ERROR);
        }
        for (String type : MALFORMED_CONTENT_TYPES) {
            add("mcp stream content-type '" + type + "'", "GET", gate,
                    with(with(auth(fixture.apiKey()), "Accept", "text/event-stream"), "Content-Type", type), null, Set.of(415),
                    Answer.JSON_ERROR);
        }
        add("mcp stream for a Streamable HTTP client", "GET", gate, with(with(auth(fixture.apiKey()), "Accept", "text/event-stream"),
                "MCP-Protocol-Version", "2025-06-18"), null, Set.of(405), Answer.JSON_ERROR);
        for (String session : List.of("x", UUID.randomUUID().toString(), "%00", "1-1-1-1-1")) {
            add("mcp unknown session " + session, "POST", gate + "?sessionId=" + session, headers,
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8), Set.of(404), Answer.JSON_ERROR);
        }
        for (String method : List.of("PUT", "DELETE", "PATCH")) {
            add("mcp method " + method, method, gate, auth(fixture.apiKey()), null, Set.of(405), Answer.JSON_ERROR);
        }
    }

    private void oauthCases() {
        for (String callback : List.of("/functions/v1/issue-tracker-oauth-callback", "/functions/v1/code-host-oauth-callback")) {
            for (String query : List.of("", "?state=", "?state=garbage", "?state=a.b.c", "?code=x", "?state=x&state=y",
                    "?error=access_denied", "?state=" + "s".repeat(3000), "?state=eyJhbGciOiJub25lIn0.eyJ0b29sIjoieCJ9.")) {
                add("oauth " + callback.substring(14) + " " + abbreviate(query), "GET", callback + query, List.of(), null,
                        BAD_REQUEST, Answer.JSON_ERROR);
            }
            add("oauth method POST", "POST", callback, List.of(), null, Set.of(405), Answer.JSON_ERROR);
        }
        String start = "/admin/v1/workspaces/" + fixture.workspaceId() + "/tools/";
        for (String tool : List.of("docs", "shell", "mcp")) {
            add("oauth start " + tool, "GET", start + tool + "/oauth/start", auth(fixture.ownerJwt()), null, Set.of(400),
                    Answer.JSON_ERROR);
        }
        add("oauth start no credential", "GET", start + "code_host/oauth/start", List.of(), null, Set.of(401), Answer.JSON_ERROR);
    }

    private void unknownPaths() {
        // "/" is the console's (a page: to its sign-in; ConsoleBrowserTest covers its answers)
        for (String path : List.of("/functions", "/functions/v1/", "/functions/v2/evaluate-action", "/admin/v1/workspaces/x/y/z",
                "/actuator/env", "/actuator/heapdump", "/%2e%2e/%2e%2e/etc/passwd", "/functions/v1/evaluate-action/extra",
                "/index.html", "/.git/config", "/functions/v1/mcp-gate/status/", "/admin/v1/workspaces/")) {
            add("unknown path " + path, "GET", path, List.of(), null, Set.of(404, 405), Answer.JSON_ERROR);
        }
    }

    // --- small helpers ---

    private void add(String name, String method, String path, List<String[]> headers, byte[] body, Set<Integer> expected, Answer answer) {
        cases.add(new Case(cases.size() + 1 + ": " + name, method, path, headers, body, expected, answer));
    }

    private static List<String[]> auth(String bearer) {
        return bearer == null ? List.of() : List.<String[]>of(new String[] {"Authorization", "Bearer " + bearer});
    }

    private static List<String[]> with(List<String[]> headers, String name, String value) {
        List<String[]> all = new ArrayList<>(headers);
        all.add(new String[] {name, value});
        return all;
    }

    private static byte[] body(Route route) {
        return route.body == null ? null : json(route.body);
    }

    public static byte[] json(Object value) {
        return io.agentgateway.schemas.GatewayJson.MAPPER.writeValueAsBytes(value);
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    private static Map<String, Object> merge(Map<String, Object> body, String field, Object value) {
        Map<String, Object> changed = new LinkedHashMap<>(body);
        changed.put(field, value);
        return changed;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Map<?, ?> map) {
        return (Map<String, Object>) map;
    }

    private static String abbreviate(String text) {
        StringBuilder printable = new StringBuilder();
        for (int i = 0; i < text.length() && printable.length() < 40; i++) {
            char c = text.charAt(i);
            printable.append(c < 0x20 || c == 0x7f ? "\\x" + Integer.toHexString(c) : String.valueOf(c));
        }
        return text.length() > 40 ? printable + "…(" + text.length() + ")" : printable.toString();
    }

    /** How long a bad input may take to be answered. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);
}
