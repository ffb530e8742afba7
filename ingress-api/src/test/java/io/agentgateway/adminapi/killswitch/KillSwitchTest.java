package io.agentgateway.adminapi.killswitch;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.ingresstestsupport.SharedIngress;
import io.agentgateway.ingresstestsupport.TestHttp;
import io.agentgateway.ingresstestsupport.TestTokens;
import io.agentgateway.schemas.ActorKind;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.SetKillSwitch;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class KillSwitchTest {
    private static final String PATH = "/functions/v1/kill-switch";

    private static final RunningIngress ingress = SharedIngress.ingress();
    private static final DecisionResponder responder = SharedIngress.responder();
    private String workspaceId;
    private String token;

    @BeforeEach
    void newWorkspace() {
        workspaceId = UUID.randomUUID().toString();
        token = TestTokens.user("admin-" + workspaceId);
    }

    private TestHttp.Response call(String body) {
        return ingress.http.post(PATH).bearer(token).body(body).send();
    }

    @Test
    void enableReturnsOkOnlyAfterTheStreamAccepted() {
        responder.answer(workspaceId, DecisionResponder::ok);

        TestHttp.Response response = call("{\"workspaceId\":\"" + workspaceId + "\",\"action\":\"enable\"}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text()).isEqualTo("{\"ok\":true}");
        CommandEnvelope envelope = responder.received(workspaceId).get(0);
        assertThat(envelope.command()).isEqualTo(new SetKillSwitch(KillSwitchAction.ENABLE, null));
        assertThat(envelope.actor().kind()).isEqualTo(ActorKind.USER);
        assertThat(envelope.actor().userId()).isEqualTo("admin-" + workspaceId);
        assertThat(envelope.actor().email()).isEqualTo("admin-" + workspaceId + "@example.test");
    }

    @Test
    void pauseToolCarriesTheTool() {
        responder.answer(workspaceId, DecisionResponder::ok);

        TestHttp.Response response = call("{\"workspaceId\":\"" + workspaceId + "\",\"action\":\"pause_tool\",\"tool\":\"code_host\"}");

        assertThat(response.status()).isEqualTo(200);
        assertThat(responder.received(workspaceId).get(0).command()).isEqualTo(new SetKillSwitch(KillSwitchAction.PAUSE_TOOL, Tool.CODE_HOST));
    }

    @Test
    void aForbiddenReplyIs403() {
        responder.answer(workspaceId, envelope -> DecisionResponder.status(envelope, ReplyStatus.FORBIDDEN, "not an admin"));

        TestHttp.Response response = call("{\"workspaceId\":\"" + workspaceId + "\",\"action\":\"disable\"}");

        assertThat(response.status()).isEqualTo(403);
        assertThat(response.error()).isEqualTo("Admin or owner role required");
    }

    @Test
    void aMissingTokenIs401() {
        TestHttp.Response response = ingress.http.post(PATH).body("{\"workspaceId\":\"" + workspaceId + "\",\"action\":\"enable\"}").send();

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.error()).isEqualTo("Authentication required");
    }

    @Test
    void anExpiredOrForgedTokenIs401() {
        String expired = TestTokens.hs256(RunningIngress.JWT_SECRET,
                TestTokens.claims("u", Instant.now().minus(Duration.ofHours(1))).build());
        String forged = TestTokens.hs256("some-other-secret-some-other-secret-!!",
                TestTokens.claims("u", Instant.now().plus(Duration.ofHours(1))).build());
        String body = "{\"workspaceId\":\"" + workspaceId + "\",\"action\":\"enable\"}";

        for (String bad : new String[] {expired, forged, "garbage"}) {
            TestHttp.Response response = ingress.http.post(PATH).bearer(bad).body(body).send();
            assertThat(response.status()).isEqualTo(401);
            assertThat(response.error()).isEqualTo("Invalid or expired token");
        }
        TestHttp.Response basic = ingress.http.post(PATH).header("Authorization", "Basic eDp5").body(body).send();
        assertThat(basic.status()).isEqualTo(401);
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            not json                                                   | Request body must be a JSON object
            []                                                         | Request body must be a JSON object
            {"action":"enable"}                                        | workspaceId must be a uuid
            {"workspaceId":"abc","action":"enable"}                    | workspaceId must be a uuid
            {"workspaceId":42,"action":"enable"}                       | workspaceId must be a uuid
            {"workspaceId":"%s","action":"explode"}                    | Unsupported action
            {"workspaceId":"%s"}                                       | Unsupported action
            {"workspaceId":"%s","action":"pause_tool"}                 | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            {"workspaceId":"%s","action":"resume_tool","tool":"slack"} | tool must be one of: code_host, issue_tracker, chat, docs, internal_api, mcp
            """)
    void invalidBodiesAre400(String body, String error) {
        TestHttp.Response response = call(body.replace("%s", workspaceId));

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.error()).isEqualTo(error);
        assertThat(responder.received(workspaceId)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "PUT", "DELETE"})
    void otherMethodsAre405(String method) {
        TestHttp.Response response = ingress.http.request(method, PATH).bearer(token).send();

        assertThat(response.status()).isEqualTo(405);
        assertThat(response.headers().first("Allow")).isEqualTo("POST");
        assertThat(response.error()).isEqualTo("Method not allowed");
    }
}
