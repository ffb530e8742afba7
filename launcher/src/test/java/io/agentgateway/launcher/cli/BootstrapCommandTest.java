package io.agentgateway.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.GatewayHttpClient;
import io.agentgateway.launcher.support.GatewayHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code bootstrap} against a running gateway, as an operator of an external cluster runs it: the first
 * operator, workspace, owner and key printed once; refused when the gateway does not know the operator,
 * when the secret differs, and when workspaces exist (unless --force). Only operators create or list
 * workspaces (issue 14, item 6).
 */
class BootstrapCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(Map<String, String> env, String... args) {
        out.reset();
        err.reset();
        return new BootstrapCommand(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                env).execute(List.of(args));
    }

    private Map<String, String> env() {
        EmbeddedGateway gateway = GatewayHarness.gateway();
        return Map.of("GATEWAY_AUTH_JWT_HS256SECRET", gateway.secrets().jwtSecret(), "GATEWAY_URL", gateway.baseUrl());
    }

    @Test
    void printsTheOperatorTheWorkspaceItsOwnerAndAKeyThatWork() {
        // the shared gateway has workspaces of other tests already: refused without --force
        GatewayHarness.newWorkspace();
        assertThat(run(env())).isEqualTo(3);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("already bootstrapped");

        assertThat(run(env(), "--force", "--owner", "alice", "--owner-email", "alice@acme.example",
                "--workspace-name", "Acme")).isEqualTo(0);
        String printed = out.toString(StandardCharsets.UTF_8);
        String operatorJwt = field(printed, "Operator JWT");
        String workspaceId = field(printed, "Workspace id");
        String ownerJwt = field(printed, "Owner JWT");
        String key = field(printed, "Agent API key");

        GatewayHttpClient http = GatewayHarness.client();
        // the list is the read model: it shows the workspace once the projector wrote it
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15)).untilAsserted(() -> {
            var listed = http.send("GET", "/admin/v1/workspaces?limit=500", operatorJwt, null);
            assertThat(listed.status()).isEqualTo(200);
            assertThat(listed.rawBody()).contains(workspaceId).contains("alice");
        });
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(15)).untilAsserted(() ->
                assertThat(http.send("GET", "/admin/v1/workspaces/" + workspaceId + "/members", ownerJwt, null).rawBody())
                        .contains("\"alice\"").contains("owner"));
        var evaluated = http.send("POST", "/functions/v1/evaluate-action", key,
                Map.of("tool", "docs", "action", "page.read", "riskLevel", "low"));
        assertThat(evaluated.status()).isEqualTo(200);
        assertThat(evaluated.text("decision")).isEqualTo("allow");
    }

    @Test
    void refusesClearlyWhatItCannotDo() {
        assertThat(run(Map.of("GATEWAY_URL", GatewayHarness.gateway().baseUrl()))).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("GATEWAY_AUTH_JWT_HS256SECRET");

        assertThat(run(env(), "--operator", "not-an-operator", "--force")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("GATEWAY_AUTH_OPERATORS=not-an-operator");

        Map<String, String> wrongSecret = Map.of("GATEWAY_AUTH_JWT_HS256SECRET", "another-secret-of-at-least-32-bytes-long",
                "GATEWAY_URL", GatewayHarness.gateway().baseUrl());
        assertThat(run(wrongSecret, "--force")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("refused the operator's token");

        assertThat(run(env(), "--bogus")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("bootstrap: unknown option --bogus");
        assertThat(run(env(), "--owner", "a", "--owner", "b")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("bootstrap: --owner is given twice");
        // asked for: the usage on standard output, nothing done, success
        assertThat(run(env(), "--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).startsWith("usage: bootstrap");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void aUserWhoIsNoOperatorCannotCreateOrListWorkspaces() {
        String user = GatewayHarness.jwt("someone", "someone@example.com");
        var created = GatewayHarness.client().send("POST", "/admin/v1/workspaces", user, Map.of("name", "mine"));
        assertThat(created.status()).isEqualTo(403);
        assertThat(created.text("error")).isEqualTo("Operator role required");
        assertThat(GatewayHarness.client().send("GET", "/admin/v1/workspaces", user, null).status()).isEqualTo(403);
    }

    private static String field(String printed, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + ":\\s+(\\S+)").matcher(printed);
        assertThat(m.find()).as(label + " in " + printed).isTrue();
        return m.group(1);
    }
}
