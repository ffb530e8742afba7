package io.agentgateway.actiongate.callview;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.call.CallView;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 16 item 4: what reviewers are shown of a held call, made from the bytes that are sealed, with secrets
 * and credentials taken out and every part bounded.
 */
class CallViewsTest {
    private static final String GHP = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    private static final String AGK = "agk_0123456789abcdef0123456789abcdef_x";
    private static final String XOX = "xoxb-123456789012-123456789012-abcdefABCDEF";
    private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2lnbmF0dXJlLW9mLXRoZS1qd3Q";
    private static final String PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn\n-----END RSA PRIVATE KEY-----";
    private static final Map<String, List<String>> JSON = Map.of("content-type", List.of("application/json"));

    private final CallViews views = CallViews.bounded(4096);

    @Test
    void aWorkflowFileWriteShowsTheFileItWouldWriteWithItsSecretsRedacted() {
        String workflow = "name: deploy\non: push\njobs:\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n"
                + "      - run: ./deploy.sh --token " + GHP + "\n      - env:\n          password: hunter2-the-password\n";
        String body = "{\"message\":\"ci: deploy on push\",\"branch\":\"main\",\"content\":\""
                + Base64.getEncoder().encodeToString(workflow.getBytes(StandardCharsets.UTF_8)) + "\"}";

        CallView view = views.http(Tool.CODE_HOST, "file.write", "PUT", "/repos/acme/app/contents/.github/workflows/deploy.yml",
                "ref=main", false, JSON, body.getBytes(StandardCharsets.UTF_8));

        assertThat(view.method()).isEqualTo("PUT");
        assertThat(view.path()).isEqualTo("/repos/acme/app/contents/.github/workflows/deploy.yml");
        assertThat(view.query()).isEqualTo("ref=main");
        assertThat(view.fileContent()).contains("name: deploy", "run: ./deploy.sh --token [redacted]", "password: [redacted]")
                .doesNotContain(GHP).doesNotContain("hunter2");
        assertThat(view.bodyExcerpt()).contains("\"message\":\"ci: deploy on push\"", "see fileContent")
                .doesNotContain(Base64.getEncoder().encodeToString(workflow.getBytes(StandardCharsets.UTF_8)));
        assertThat(view.bodyBytes()).isEqualTo(body.length());
        assertThat(view.redacted()).isTrue();
        assertThat(view.truncated()).isFalse();
    }

    @Test
    void aGraphQlRequestShowsItsOperationDocumentAndVariables() {
        String body = "{\"query\":\"mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }\","
                + "\"variables\":{\"id\":\"ISS-42\",\"apiKey\":\"lin_api_abcdefghijklmnopqrstuvwxyz\"},\"operationName\":\"IssueDelete\"}";

        CallView view = views.http(Tool.ISSUE_TRACKER, "issue.delete", "POST", "/graphql", null, true, JSON,
                body.getBytes(StandardCharsets.UTF_8));

        assertThat(view.graphqlOperation()).isEqualTo("IssueDelete");
        assertThat(view.graphqlDocument()).isEqualTo("mutation IssueDelete($id: String!) { issueDelete(id: $id) { success } }");
        assertThat(view.graphqlVariables()).isEqualTo("{\"id\":\"ISS-42\",\"apiKey\":\"[redacted]\"}");
        assertThat(view.bodyExcerpt()).as("the document and variables are the body").isNull();
        assertThat(view.redacted()).isTrue();
    }

    @Test
    void anMcpToolCallShowsTheToolAndItsArgumentsWithoutCredentials() {
        CallView view = views.mcp("delete_repo", IngressJson.REQUESTS.readTree("{\"repo\":\"acme/app\",\"force\":true,"
                + "\"auth\":{\"client_secret\":\"s3cr3t\",\"scheme\":\"basic\"},\"note\":\"use " + XOX + " and " + JWT + "\","
                + "\"tags\":[\"" + AGK + "\",1]}"));

        assertThat(view.mcpTool()).isEqualTo("delete_repo");
        assertThat(view.mcpArguments()).contains("\"repo\":\"acme/app\"", "\"force\":true", "\"client_secret\":\"[redacted]\"",
                        "\"scheme\":\"basic\"", "use [redacted] and [redacted]", "[\"[redacted]\",1]")
                .doesNotContain("s3cr3t").doesNotContain(XOX).doesNotContain(JWT).doesNotContain(AGK);
        assertThat(view.method()).isNull();
        assertThat(view.redacted()).isTrue();
    }

    @Test
    void aHeldMcpReadOrPromptShowsItsMethodAndParamsWithoutCredentials() {
        CallView view = views.mcpRequest("prompts/get", IngressJson.REQUESTS.readTree(
                "{\"name\":\"greeting\",\"arguments\":{\"who\":\"Ada\",\"api_key\":\"" + AGK + "\"}}"));

        assertThat(view.method()).isEqualTo("prompts/get");
        assertThat(view.bodyExcerpt()).contains("\"name\":\"greeting\"", "\"who\":\"Ada\"", "\"api_key\":\"[redacted]\"")
                .doesNotContain(AGK);
        assertThat(view.mcpTool()).isNull();
        assertThat(view.redacted()).isTrue();
        assertThat(views.mcpRequest("resources/read", null).bodyExcerpt()).isNull();
    }

    @Test
    void credentialsAreTakenOutWhereverTheyAppear() {
        Redaction redaction = new Redaction();
        String text = "Authorization: Bearer sometoken1234567890 and token " + GHP + "\n" + PEM + "\nurl https://bob:pa55word@host.example/x"
                + " key=" + AGK + "&api_key=abc123456&access_token=zzz9999999 cookie: session=abcdef; user=ada";
        String shown = redaction.text(text);
        assertThat(shown).doesNotContain("sometoken1234567890").doesNotContain(GHP).doesNotContain("MIIEow")
                .doesNotContain("pa55word").doesNotContain(AGK).doesNotContain("abc123456").doesNotContain("zzz9999999")
                .doesNotContain("session=abcdef")
                .contains("https://bob:[redacted]@host.example/x", "user=ada");
        assertThat(redaction.redactedAny()).isTrue();

        // a PEM block cut before its end line is still taken out
        assertThat(new Redaction().text("key: -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC")).doesNotContain("MIIEvQ");
        // ordinary text is left alone, and says so
        Redaction plain = new Redaction();
        assertThat(plain.text("Merge pull request #12 from acme/feature")).isEqualTo("Merge pull request #12 from acme/feature");
        assertThat(plain.redactedAny()).isFalse();
        // by key name, whatever the spelling; not by lookalikes
        assertThat(Redaction.secretKey("X-Api-Key")).isTrue();
        assertThat(Redaction.secretKey("privateKey")).isTrue();
        assertThat(Redaction.secretKey("Authorization")).isTrue();
        assertThat(Redaction.secretKey("author")).isFalse();
        assertThat(Redaction.secretKey("keywords")).isFalse();
    }

    @Test
    void everyPartIsBoundedAtAUtf8BoundaryAndBinaryBodiesAreNotShown() {
        CallViews small = CallViews.bounded(256);
        String text = "é".repeat(400);
        CallView cut = small.http(Tool.DOCS, "page.publish", "POST", "/pages", null, false,
                Map.of("content-type", List.of("text/plain")), text.getBytes(StandardCharsets.UTF_8));
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.bodyExcerpt().getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(256 + 3);
        assertThat(cut.bodyExcerpt()).startsWith("éé").endsWith("…").doesNotContain("\uFFFD");

        CallView binary = small.http(Tool.INTERNAL_API, "upload", "PUT", "/blobs/1", null, false,
                Map.of("content-type", List.of("application/octet-stream")), new byte[] {0, 1, 2, (byte) 0xff, 4});
        assertThat(binary.bodyExcerpt()).isEqualTo("<5 bytes of application/octet-stream, not shown>");
        assertThat(binary.bodyBytes()).isEqualTo(5);

        CallView none = small.http(Tool.CODE_HOST, "ref.delete", "DELETE", "/repos/a/b/git/refs/heads/main", null, false,
                Map.of(), new byte[0]);
        assertThat(none.bodyExcerpt()).isNull();
        assertThat(none.bodyBytes()).isNull();
    }

    @Test
    void aLargeBodyCostsWhatIsShownAndNoCredentialIsLeftCutInHalf() {
        // 380 KB of one identifier-like run (the worst case for name=value patterns), then a token right at the cut
        String run = "a".repeat(380_000);
        long start = System.nanoTime();
        CallView view = views.http(Tool.INTERNAL_API, "upload", "POST", "/blobs", null, false,
                Map.of("content-type", List.of("text/plain")), run.getBytes(StandardCharsets.UTF_8));
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isLessThan(java.time.Duration.ofSeconds(2));
        assertThat(view.truncated()).isTrue();
        assertThat(view.bodyExcerpt().length()).isLessThan(4200);

        String padded = "x ".repeat(8_191) + GHP + " tail";
        Redaction cutting = new Redaction(16_400);
        assertThat(cutting.text(padded)).doesNotContain("ghp_").doesNotContain("Zx9");
        assertThat(cutting.cutAny()).isTrue();
    }

    @Test
    void anEvaluateActionPayloadIsShownRedacted() {
        CallView view = views.payload(IngressJson.REQUESTS.readTree("{\"page\":\"launch-plan\",\"token\":\"never-shown\"}"));
        assertThat(view.bodyExcerpt()).isEqualTo("{\"page\":\"launch-plan\",\"token\":\"[redacted]\"}");
        assertThat(views.payload(null)).isNull();
    }
}
