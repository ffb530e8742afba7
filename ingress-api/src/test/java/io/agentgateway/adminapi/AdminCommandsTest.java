package io.agentgateway.adminapi;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.auth.ApiKeys;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.DeletePolicy;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RemoveMember;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.SetNotificationSettings;
import io.agentgateway.schemas.command.SetWorkspaceDefaults;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.secret.SecretBox;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** Admin writes: validated here, then sent to the decision stream as commands of the JWT's user. */
class AdminCommandsTest {
    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private String workspaceId;
    private String base;
    private String token;

    @BeforeEach
    void newWorkspace() {
        workspaceId = UUID.randomUUID().toString();
        base = "/admin/v1/workspaces/" + workspaceId;
        token = TestTokens.user("owner-1");
        responder.answer(workspaceId, DecisionResponder::ok);
    }

    private CommandEnvelope onlyCommand(String workspace) {
        List<CommandEnvelope> received = responder.received(workspace);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).actor().kind()).isEqualTo(ActorKind.USER);
        assertThat(received.get(0).actor().userId()).isEqualTo("owner-1");
        assertThat(received.get(0).actor().email()).isEqualTo("owner-1@example.test");
        return received.get(0);
    }

    private CommandEnvelope onlyCommand() {
        return onlyCommand(workspaceId);
    }

    @Test
    void anOperatorCreatesAWorkspaceForItsOwner() {
        String name = "Acme " + UUID.randomUUID();
        responder.answerWhen(e -> e.command() instanceof CreateWorkspace create && create.name().equals(name), DecisionResponder::ok);

        TestHttp.Response response = ingress.http.post("/admin/v1/workspaces").bearer(TestTokens.user(RunningIngress.OPERATOR))
                .body("{\"name\":\"" + name + "\",\"ownerUserId\":\"alice\",\"ownerEmail\":\"alice@acme.example\"}").send();

        assertThat(response.status()).isEqualTo(201);
        assertThat(response.json().get("ok").booleanValue()).isTrue();
        String created = response.json().get("workspaceId").asString();
        List<CommandEnvelope> received = responder.received(created);
        assertThat(received).hasSize(1);
        assertThat(received.get(0).actor().userId()).isEqualTo(RunningIngress.OPERATOR);
        assertThat(received.get(0).command()).isEqualTo(new CreateWorkspace(name, "alice", "alice@acme.example"));
    }

    @Test
    void anyOtherUserMayNeitherCreateNorListWorkspaces() {
        // issue 14 item 6: any valid user JWT could create workspaces
        TestHttp.Response refused = ingress.http.post("/admin/v1/workspaces").bearer(token).body("{\"name\":\"x\"}").send();
        assertThat(refused.status()).isEqualTo(403);
        assertThat(refused.error()).isEqualTo("Operator role required");
        TestHttp.Response listed = ingress.http.get("/admin/v1/workspaces").bearer(token).send();
        assertThat(listed.status()).isEqualTo(403);
        assertThat(listed.error()).isEqualTo("Operator role required");
    }

    @Test
    void creatingAWorkspaceNeedsAUserAndAName() {
        String operator = TestTokens.user(RunningIngress.OPERATOR);
        assertThat(ingress.http.post("/admin/v1/workspaces").body("{\"name\":\"x\"}").send().status()).isEqualTo(401);
        TestHttp.Response noName = ingress.http.post("/admin/v1/workspaces").bearer(operator).body("{\"name\":\"  \"}").send();
        assertThat(noName.status()).isEqualTo(400);
        assertThat(noName.error()).isEqualTo("name must be a non-empty string");
        TestHttp.Response emailAlone = ingress.http.post("/admin/v1/workspaces").bearer(operator)
                .body("{\"name\":\"x\",\"ownerEmail\":\"a@b.c\"}").send();
        assertThat(emailAlone.status()).isEqualTo(400);
    }

    @Test
    void anOperatorListsWorkspacesWithTheirOwners() {
        UUID listed = ingress.rows.workspace("Listed " + UUID.randomUUID());
        ingress.rows.member(listed, "alice", "owner");
        ingress.rows.member(listed, "bob", "admin");
        TestHttp.Response response = ingress.http.get("/admin/v1/workspaces?limit=500").bearer(TestTokens.user(RunningIngress.OPERATOR)).send();
        assertThat(response.status()).isEqualTo(200);
        var item = java.util.stream.StreamSupport.stream(response.json().get("items").spliterator(), false)
                .filter(i -> i.get("workspaceId").asString().equals(listed.toString())).findFirst().orElseThrow();
        assertThat(item.get("owners").get(0).asString()).isEqualTo("alice");
        assertThat(item.get("owners").size()).isEqualTo(1);
        assertThat(item.get("killSwitchEnabled").booleanValue()).isFalse();
    }

    @Test
    void aNewPolicyGetsAServerIdAndTheWholeBodyTravels() {
        TestHttp.Response response = ingress.http.post(base + "/policies").bearer(token).body("""
                {"name":"No merges","priority":10,"decision":"require_approval","description":"ask first",
                 "match":{"tools":["code_host"],"actions":["pull_request.*"],"riskLevels":["high","critical"],
                          "agentIds":["agent-*"],"resourceTypes":["repo"],"resourceIds":["acme/*"],"sources":["evaluate","mcp"]}}""")
                .send();

        assertThat(response.status()).isEqualTo(201);
        String policyId = response.json().get("policyId").asString();
        Policy policy = ((UpsertPolicy) onlyCommand().command()).policy();
        assertThat(policy).isEqualTo(new Policy(policyId, "No merges", 10, true, Decision.REQUIRE_APPROVAL,
                new PolicyMatch(Set.of(Tool.CODE_HOST), List.of("pull_request.*"), Set.of(RiskLevel.HIGH, RiskLevel.CRITICAL),
                        List.of("agent-*"), List.of("repo"), List.of("acme/*"), Set.of(ActionSource.EVALUATE, ActionSource.MCP)),
                "ask first"));
    }

    @Test
    void replacingAPolicyUsesThePathId() {
        String policyId = UUID.randomUUID().toString();

        TestHttp.Response response = ingress.http.put(base + "/policies/" + policyId).bearer(token)
                .body("{\"id\":\"" + policyId + "\",\"name\":\"Block\",\"priority\":1,\"enabled\":false,\"decision\":\"block\"}").send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("policyId").asString()).isEqualTo(policyId);
        assertThat(((UpsertPolicy) onlyCommand().command()).policy())
                .isEqualTo(new Policy(policyId, "Block", 1, false, Decision.BLOCK, PolicyMatch.any(), null));
    }

    @Test
    void deletingAPolicySendsDeletePolicyAndMapsNotFound() {
        String policyId = UUID.randomUUID().toString();
        responder.answer(workspaceId, e -> DecisionResponder.status(e, ReplyStatus.NOT_FOUND, "Policy not found"));

        TestHttp.Response response = ingress.http.delete(base + "/policies/" + policyId).bearer(token).send();

        assertThat(response.status()).isEqualTo(404);
        assertThat(response.error()).isEqualTo("Policy not found");
        assertThat(onlyCommand().command()).isEqualTo(new DeletePolicy(policyId));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"priority":1,"decision":"block"}                                      | name must be a non-empty string
            {"name":"n","decision":"block"}                                        | priority must be an integer
            {"name":"n","priority":1.5,"decision":"block"}                         | priority must be an integer
            {"name":"n","priority":"1","decision":"block"}                         | priority must be an integer
            {"name":"n","priority":1}                                              | decision must be one of: allow, block, require_approval
            {"name":"n","priority":1,"decision":"deny"}                            | decision must be one of: allow, block, require_approval
            {"name":"n","priority":1,"decision":"block","enabled":"yes"}           | enabled must be a boolean
            {"name":"n","priority":1,"decision":"block","match":[]}                | match must be an object
            {"name":"n","priority":1,"decision":"block","match":{"tool":["mcp"]}}  | unknown field: match.tool
            {"name":"n","priority":1,"decision":"block","match":{"tools":["x"]}}   | match.tools must be an array of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"name":"n","priority":1,"decision":"block","match":{"tools":"mcp"}}   | match.tools must be an array of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"name":"n","priority":1,"decision":"block","match":{"riskLevels":["x"]}} | match.riskLevels must be an array of: low, medium, high, critical
            {"name":"n","priority":1,"decision":"block","match":{"sources":["x"]}} | match.sources must be an array of: evaluate, proxy, mcp, webhook
            {"name":"n","priority":1,"decision":"block","match":{"actions":[1]}}   | match.actions must be an array of strings
            {"name":"n","priority":1,"decision":"block","description":3}           | description must be a string
            {"name":"n","priority":1,"decision":"block","colour":"red"}            | unknown field: colour
            {"id":"%s","name":"n","priority":1,"decision":"block"}                 | id is assigned by the server
            """)
    void invalidPoliciesAre400(String body, String error) {
        TestHttp.Response response = ingress.http.post(base + "/policies").bearer(token).body(body.replace("%s", UUID.randomUUID().toString())).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @Test
    void aPutWhoseBodyIdDiffersFromThePathIs400() {
        TestHttp.Response response = ingress.http.put(base + "/policies/" + UUID.randomUUID()).bearer(token)
                .body("{\"id\":\"" + UUID.randomUUID() + "\",\"name\":\"n\",\"priority\":1,\"decision\":\"block\"}").send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo("id must equal the policy id of the path");
    }

    @Test
    void pathIdsMustBeUuids() {
        TestHttp.Response badWorkspace = ingress.http.get("/admin/v1/workspaces/nope/policies").bearer(token).send();
        TestHttp.Response badPolicy = ingress.http.delete(base + "/policies/nope").bearer(token).send();
        TestHttp.Response badKey = ingress.http.delete(base + "/api-keys/nope").bearer(token).send();

        assertThat(badWorkspace.status()).isEqualTo(400);
        assertThat(badWorkspace.error()).isEqualTo("workspaceId must be a uuid");
        assertThat(badPolicy.error()).isEqualTo("policyId must be a uuid");
        assertThat(badKey.error()).isEqualTo("keyId must be a uuid");
    }

    @Test
    void streamStatusesMapToHttp() {
        Map<ReplyStatus, Integer> expected = Map.of(ReplyStatus.FORBIDDEN, 403, ReplyStatus.CONFLICT, 409,
                ReplyStatus.INVALID, 400, ReplyStatus.UNAUTHORIZED, 401, ReplyStatus.NOT_FOUND, 404);
        expected.forEach((status, http) -> {
            responder.answer(workspaceId, e -> DecisionResponder.status(e, status, "because " + status.wire()));
            TestHttp.Response response = ingress.http.delete(base + "/members/u-1").bearer(token).send();
            assertThat(response.status()).as(status.wire()).isEqualTo(http);
            assertThat(response.json().get("ok").booleanValue()).isFalse();
        });
        responder.answer(workspaceId, e -> DecisionResponder.status(e, ReplyStatus.FORBIDDEN, "x"));
        assertThat(ingress.http.delete(base + "/members/u-1").bearer(token).send().error()).isEqualTo("Admin or owner role required");
        responder.answer(workspaceId, e -> DecisionResponder.status(e, ReplyStatus.CONFLICT, "The last owner cannot be removed"));
        assertThat(ingress.http.delete(base + "/members/u-1").bearer(token).send().error()).isEqualTo("The last owner cannot be removed");
    }

    @Test
    void defaultsAreValidatedAndSent() {
        TestHttp.Response response = ingress.http.put(base + "/defaults").bearer(token)
                .body("{\"decisions\":{\"low\":\"allow\",\"critical\":\"require_approval\"},\"approvalTtl\":\"PT24H\"}").send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(onlyCommand().command()).isEqualTo(new SetWorkspaceDefaults(
                Map.of(RiskLevel.LOW, Decision.ALLOW, RiskLevel.CRITICAL, Decision.REQUIRE_APPROVAL), Duration.ofHours(24)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {}                                          | decisions, approvalTtl or timeZone is required
            {"decisions":[]}                            | decisions must be an object
            {"decisions":{"extreme":"block"}}           | decisions keys must be risk levels: low, medium, high, critical
            {"decisions":{"low":"maybe"}}               | decisions.low must be one of: allow, block, require_approval
            {"approvalTtl":"one day"}                   | approvalTtl must be an ISO-8601 duration such as PT24H
            {"approvalTtl":"-PT1H"}                     | approvalTtl must be a positive ISO-8601 duration such as PT24H
            """)
    void invalidDefaultsAre400(String body, String error) {
        TestHttp.Response response = ingress.http.put(base + "/defaults").bearer(token).body(body).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
    }

    @Test
    void anIssuedKeyIsShownOnceAndOnlyItsHashIsSent() {
        Instant expiry = Instant.now().plus(Duration.ofDays(30)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);

        TestHttp.Response response = ingress.http.post(base + "/api-keys").bearer(token)
                .body("{\"name\":\"ci\",\"scopes\":[\"evaluate\",\"mcp\"],\"expiresAt\":\"" + expiry + "\"}").send();

        assertThat(response.status()).isEqualTo(201);
        JsonNode json = response.json();
        String key = json.get("key").asString();
        assertThat(ApiKeys.parseWorkspace(key)).contains(UUID.fromString(workspaceId));
        IssueApiKey command = (IssueApiKey) onlyCommand().command();
        assertThat(command.keyId()).isEqualTo(json.get("keyId").asString());
        assertThat(command.keyHash()).isEqualTo(ApiKeys.hash(key));
        assertThat(command.name()).isEqualTo("ci");
        assertThat(command.scopes()).containsExactlyInAnyOrder(Scope.EVALUATE, Scope.MCP);
        assertThat(command.expiresAt()).isEqualTo(expiry);
        assertThat(responder.received(workspaceId).get(0).toString()).doesNotContain(key);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"scopes":["evaluate"]}                                   | name must be a non-empty string
            {"name":"k"}                                              | scopes must be a non-empty array of: evaluate, mcp, proxy
            {"name":"k","scopes":[]}                                  | scopes must be a non-empty array of: evaluate, mcp, proxy
            {"name":"k","scopes":["admin"]}                           | scopes must be a non-empty array of: evaluate, mcp, proxy
            {"name":"k","scopes":["evaluate"],"expiresAt":"tomorrow"} | expiresAt must be an ISO-8601 timestamp
            {"name":"k","scopes":["evaluate"],"expiresAt":"2001-01-01T00:00:00Z"} | expiresAt must be in the future
            """)
    void invalidKeyRequestsAre400(String body, String error) {
        TestHttp.Response response = ingress.http.post(base + "/api-keys").bearer(token).body(body).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
    }

    @Test
    void revokingAKeySendsRevokeApiKey() {
        String keyId = UUID.randomUUID().toString();

        assertThat(ingress.http.delete(base + "/api-keys/" + keyId).bearer(token).send().status()).isEqualTo(200);
        assertThat(onlyCommand().command()).isEqualTo(new RevokeApiKey(keyId));
    }

    @Test
    void membersAreSetAndRemoved() {
        TestHttp.Response set = ingress.http.put(base + "/members/user-9").bearer(token)
                .body("{\"email\":\"nine@example.test\",\"role\":\"admin\"}").send();
        TestHttp.Response removed = ingress.http.delete(base + "/members/user-8").bearer(token).send();

        assertThat(set.status()).isEqualTo(200);
        assertThat(removed.status()).isEqualTo(200);
        assertThat(responder.received(workspaceId)).extracting(CommandEnvelope::command)
                .containsExactly(new SetMember("user-9", "nine@example.test", Role.ADMIN), new RemoveMember("user-8"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"email":"x@y"}                     | role must be one of: owner, admin, member, reviewer, viewer
            {"role":"root"}                     | role must be one of: owner, admin, member, reviewer, viewer
            {"role":"admin","email":"nobody"}   | email must be an email address
            """)
    void invalidMembersAre400(String body, String error) {
        TestHttp.Response response = ingress.http.put(base + "/members/user-9").bearer(token).body(body).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
    }

    @Test
    void theChatWebhookUrlIsSealedBeforeItLeavesTheIngress() {
        String url = "https://chat.example.test/hooks/T000/B000/secret";

        TestHttp.Response response = ingress.http.put(base + "/notification-settings").bearer(token)
                .body("{\"chatWebhookUrl\":\"" + url + "\",\"emailEnabled\":false}").send();

        assertThat(response.status()).isEqualTo(200);
        SetNotificationSettings command = (SetNotificationSettings) onlyCommand().command();
        assertThat(command.emailEnabled()).isFalse();
        assertThat(command.sealedChatWebhookUrl()).startsWith("v1.").doesNotContain("chat.example.test");
        assertThat(SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY).open(command.sealedChatWebhookUrl())).isEqualTo(url);
        assertThat(responder.received(workspaceId).get(0).toString()).doesNotContain("secret");
    }

    @Test
    void aNullUrlClearsIt() {
        ingress.http.put(base + "/notification-settings").bearer(token).body("{\"chatWebhookUrl\":null,\"emailEnabled\":true}").send();

        assertThat(onlyCommand().command()).isEqualTo(new SetNotificationSettings(null, true));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            {"chatWebhookUrl":"ftp://x.test/hook","emailEnabled":true}  | chatWebhookUrl must be an http or https URL
            {"chatWebhookUrl":"not a url","emailEnabled":true}          | chatWebhookUrl must be an http or https URL
            {"chatWebhookUrl":"https:///nohost","emailEnabled":true}    | chatWebhookUrl must be an http or https URL
            {"chatWebhookUrl":"https://x.test/hook"}                    | emailEnabled must be a boolean
            {"chatWebhookUrl":"https://x.test/hook","emailEnabled":"no"} | emailEnabled must be a boolean
            """)
    void invalidNotificationSettingsAre400(String body, String error) {
        TestHttp.Response response = ingress.http.put(base + "/notification-settings").bearer(token).body(body).send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
    }

    @Test
    void everyAdminWriteNeedsAValidToken() {
        TestHttp.Response missing = ingress.http.post(base + "/policies").body("{}").send();
        TestHttp.Response invalid = ingress.http.post(base + "/policies").bearer("nope").body("{}").send();

        assertThat(missing.status()).isEqualTo(401);
        assertThat(missing.error()).isEqualTo("Authentication required");
        assertThat(invalid.status()).isEqualTo(401);
        assertThat(invalid.error()).isEqualTo("Invalid or expired token");
    }

    @Test
    void unsupportedMethodsOnAdminPathsAre405() {
        TestHttp.Response response = ingress.http.request("PATCH", base + "/policies").bearer(token).body("{}").send();

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.headers().first("Allow")).isEqualTo("GET,POST");
    }
}
