package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** Admin reads: served from the projector's tables, for admins and owners of the workspace only. */
class AdminReadsTest {
    private static final RunningIngress ingress = SharedIngress.ingress();
    private UUID workspace;
    private String base;
    private String owner;

    @BeforeEach
    void workspaceWithOwner() {
        workspace = ingress.rows.workspace("reads");
        base = "/admin/v1/workspaces/" + workspace;
        ingress.rows.member(workspace, "owner-" + workspace, "owner");
        owner = TestTokens.user("owner-" + workspace);
    }

    private TestHttp.Response get(String path) {
        return ingress.http.get(base + path).bearer(owner).send();
    }

    @ParameterizedTest
    @ValueSource(strings = {"/policies", "/api-keys", "/members", "/defaults", "/kill-switch", "/notification-settings", "/audit-log"})
    void plainMembersStrangersAndUnknownWorkspacesGet403(String path) {
        ingress.rows.member(workspace, "member-1", "member");

        TestHttp.Response member = ingress.http.get(base + path).bearer(TestTokens.user("member-1")).send();
        TestHttp.Response stranger = ingress.http.get(base + path).bearer(TestTokens.user("stranger")).send();
        TestHttp.Response unknown = ingress.http.get("/admin/v1/workspaces/" + UUID.randomUUID() + path).bearer(owner).send();

        for (TestHttp.Response response : List.of(member, stranger, unknown)) {
            assertThat(response.status()).isEqualTo(403);
            assertThat(response.error()).isEqualTo("Admin or owner role required");
        }
        assertThat(ingress.http.get(base + path).send().status()).isEqualTo(401);
    }

    @Test
    void anAdminMayRead() {
        ingress.rows.member(workspace, "admin-1", "admin");

        assertThat(ingress.http.get(base + "/members").bearer(TestTokens.user("admin-1")).send().status()).isEqualTo(200);
    }

    @Test
    void policiesAreListedInEvaluationOrder() {
        UUID second = UUID.randomUUID();
        UUID first = UUID.randomUUID();
        ingress.rows.policy(workspace, second, "later", 20, "allow", "{\"tools\":[\"mcp\"]}");
        ingress.rows.policy(workspace, first, "earlier", 10, "block", "{\"actions\":[\"file.delete\"]}");

        JsonNode items = get("/policies").json().get("items");

        assertThat(items).hasSize(2);
        assertThat(items.get(0).get("id").asString()).isEqualTo(first.toString());
        assertThat(items.get(0).get("name").asString()).isEqualTo("earlier");
        assertThat(items.get(0).get("priority").intValue()).isEqualTo(10);
        assertThat(items.get(0).get("enabled").booleanValue()).isTrue();
        assertThat(items.get(0).get("decision").asString()).isEqualTo("block");
        assertThat(items.get(0).get("match").get("actions").get(0).asString()).isEqualTo("file.delete");
        assertThat(items.get(1).get("id").asString()).isEqualTo(second.toString());
    }

    @Test
    void apiKeysAreListedWithoutKeyOrHash() {
        String key = ApiKeys.generate(workspace);
        UUID keyId = ingress.rows.apiKey(workspace, ApiKeys.hash(key), null, null, "evaluate", "proxy");

        TestHttp.Response response = get("/api-keys");

        JsonNode item = response.json().get("items").get(0);
        assertThat(item.get("keyId").asString()).isEqualTo(keyId.toString());
        assertThat(item.get("scopes")).extracting(JsonNode::asString).containsExactly("evaluate", "proxy");
        assertThat(item.get("revokedAt").isNull()).isTrue();
        assertThat(response.text()).doesNotContain(ApiKeys.hash(key)).doesNotContain(key).doesNotContain("hash");
    }

    @Test
    void membersAreListed() {
        JsonNode item = get("/members").json().get("items").get(0);

        assertThat(item.get("userId").asString()).isEqualTo("owner-" + workspace);
        assertThat(item.get("role").asString()).isEqualTo("owner");
        assertThat(item.get("email").asString()).isEqualTo("owner-" + workspace + "@example.test");
    }

    @Test
    void defaultsFillUnsetLevelsWithTheBuiltInOnes() {
        JsonNode untouched = get("/defaults").json();
        assertThat(untouched.get("decisions").toString())
                .isEqualTo("{\"low\":\"allow\",\"medium\":\"allow\",\"high\":\"require_approval\",\"critical\":\"block\"}");
        assertThat(untouched.get("approvalTtl").isNull()).isTrue();

        ingress.rows.workspaceState(workspace, false, "{}", "{\"low\":\"block\",\"high\":\"allow\"}", 86400L);
        JsonNode set = get("/defaults").json();

        assertThat(set.get("decisions").toString())
                .isEqualTo("{\"low\":\"block\",\"medium\":\"allow\",\"high\":\"allow\",\"critical\":\"block\"}");
        assertThat(set.get("approvalTtl").asString()).isEqualTo("PT24H");
    }

    @Test
    void killSwitchStateIsShown() {
        ingress.rows.workspaceState(workspace, true, "{mcp,code_host}", "{}", null);

        JsonNode json = get("/kill-switch").json();

        assertThat(json.get("ok").booleanValue()).isTrue();
        assertThat(json.get("killSwitchEnabled").booleanValue()).isTrue();
        assertThat(json.get("pausedTools")).extracting(JsonNode::asString).containsExactly("code_host", "mcp");
    }

    @Test
    void notificationSettingsShowOnlyWhetherChatIsConfigured() {
        JsonNode json = get("/notification-settings").json();

        assertThat(json.get("chatConfigured").booleanValue()).isFalse();
        assertThat(json.get("emailEnabled").booleanValue()).isTrue();
    }

    @Test
    void theAuditLogPagesNewestFirstWithoutGapsOrRepeats() {
        Instant start = Instant.parse("2030-05-01T12:00:00Z");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            // two rows share each timestamp: the id breaks the tie
            expected.add(ingress.rows.audit(workspace, start.plusSeconds(i / 2), "mcp", "allow", "agent-1", UUID.randomUUID().toString()).toString());
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = get("/audit-log?limit=3" + (cursor == null ? "" : "&cursor=" + cursor)).json();
            page.get("items").forEach(item -> seen.add(item.get("id").asString()));
            cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asString();
            pages++;
        } while (cursor != null);

        assertThat(pages).isEqualTo(3);
        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected).doesNotHaveDuplicates();
        List<Instant> times = new ArrayList<>();
        get("/audit-log?limit=500").json().get("items").forEach(item -> times.add(Instant.parse(item.get("occurredAt").asString())));
        assertThat(times).isSortedAccordingTo(java.util.Comparator.reverseOrder());
    }

    @Test
    void theAuditLogFilters() {
        Instant t = Instant.parse("2030-06-01T00:00:00Z");
        String correlation = UUID.randomUUID().toString();
        UUID match = ingress.rows.audit(workspace, t, "code_host", "block", "agent-a", correlation);
        ingress.rows.audit(workspace, t.plusSeconds(10), "mcp", "block", "agent-a", UUID.randomUUID().toString());
        ingress.rows.audit(workspace, t.minusSeconds(10), "code_host", "allow", "agent-b", UUID.randomUUID().toString());
        UUID otherWorkspace = ingress.rows.workspace("other");
        ingress.rows.audit(otherWorkspace, t, "code_host", "block", "agent-a", correlation);

        assertThat(ids("/audit-log?correlationId=" + correlation)).containsExactly(match.toString());
        assertThat(ids("/audit-log?tool=code_host&decision=block")).containsExactly(match.toString());
        assertThat(ids("/audit-log?agentId=agent-a&tool=code_host")).containsExactly(match.toString());
        assertThat(ids("/audit-log?from=" + t + "&to=" + t.plusSeconds(1))).containsExactly(match.toString());
        assertThat(ids("/audit-log")).hasSize(3);
        JsonNode item = get("/audit-log?correlationId=" + correlation).json().get("items").get(0);
        assertThat(item.get("tool").asString()).isEqualTo("code_host");
        assertThat(item.get("riskLevel").asString()).isEqualTo("medium");
        assertThat(item.get("correlationId").asString()).isEqualTo(correlation);
        assertThat(item.get("occurredAt").asString()).isEqualTo("2030-06-01T00:00:00Z");
    }

    private List<String> ids(String path) {
        List<String> ids = new ArrayList<>();
        TestHttp.Response response = get(path);
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        response.json().get("items").forEach(item -> ids.add(item.get("id").asString()));
        return ids;
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            ?limit=0                   | limit must be an integer between 1 and 500
            ?limit=501                 | limit must be an integer between 1 and 500
            ?limit=ten                 | limit must be an integer between 1 and 500
            ?tool=github               | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            ?decision=deny             | decision must be one of: allow, block, require_approval
            ?from=yesterday            | from must be an ISO-8601 timestamp
            ?to=2030-13-01T00:00:00Z   | to must be an ISO-8601 timestamp
            ?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z | from must be before to
            ?correlationId=abc         | correlationId must be a uuid
            ?cursor=!!!                | cursor is invalid
            ?cursor=bm90LWEtY3Vyc29y   | cursor is invalid
            """)
    void invalidAuditQueriesAre400(String query, String error) {
        TestHttp.Response response = get("/audit-log" + query);

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
    }

    @Test
    void theAuditLimitDefaultsTo50() {
        for (int i = 0; i < 51; i++) {
            ingress.rows.audit(workspace, Instant.now().minus(Duration.ofMinutes(i)), "mcp", "allow", "a", UUID.randomUUID().toString());
        }

        JsonNode page = get("/audit-log").json();

        assertThat(page.get("items")).hasSize(50);
        assertThat(page.get("nextCursor").isString()).isTrue();
    }
}
