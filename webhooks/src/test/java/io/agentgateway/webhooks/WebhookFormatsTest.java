package io.agentgateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.secret.PlainSecret;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.node.ObjectNode;

/** Header aliases, signature encodings and the issue tracker's timestamp window, without a server. */
class WebhookFormatsTest {
    private static final byte[] BODY = "{\"action\":\"opened\"}".getBytes(StandardCharsets.UTF_8);
    private static final PlainSecret SECRET = PlainSecret.of("s3cret");
    private static final String HEX = HexFormat.of().formatHex(HmacSignature.sign(SECRET, BODY));
    private final CodeHostFormat codeHost = new CodeHostFormat();
    private final IssueTrackerFormat issueTracker = new IssueTrackerFormat(Duration.ofMinutes(5), Duration.ofMinutes(1));

    private static HttpHeaders headers(String... namesAndValues) {
        HttpHeaders headers = new HttpHeaders();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            headers.add(namesAndValues[i], namesAndValues[i + 1]);
        }
        return headers;
    }

    private static void rejected(Runnable call, HttpStatus status, String reason) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(WebhookRejection.class, r -> {
            assertThat(r.status()).isEqualTo(status);
            assertThat(r.reason()).isEqualTo(reason);
        });
    }

    @Test
    void theCodeHostSignatureIsReadFromTheNeutralOrTheVendorHeaderAndVerifiesTheRawBytes() {
        byte[] neutral = codeHost.signature(headers("X-Code-Host-Signature-256", "sha256=" + HEX));
        byte[] vendor = codeHost.signature(headers("X-Hub-Signature-256", "sha256=" + HEX.toUpperCase()));
        assertThat(HmacSignature.verifies(SECRET, BODY, neutral)).isTrue();
        assertThat(HmacSignature.verifies(SECRET, BODY, vendor)).isTrue();
        assertThat(HmacSignature.verifies(PlainSecret.of("other"), BODY, neutral)).isFalse();
        byte[] reformatted = "{ \"action\": \"opened\" }".getBytes(StandardCharsets.UTF_8);
        assertThat(HmacSignature.verifies(SECRET, reformatted, neutral)).as("same JSON, other bytes").isFalse();
    }

    @Test
    void sha1MissingAndMalformedCodeHostSignaturesAreRefused() {
        rejected(() -> codeHost.signature(headers("X-Hub-Signature", "sha1=" + "a".repeat(40))), HttpStatus.UNAUTHORIZED,
                "sha1_signature");
        rejected(() -> codeHost.signature(headers("X-Hub-Signature-256", "sha1=" + "a".repeat(40))), HttpStatus.UNAUTHORIZED,
                "sha1_signature");
        rejected(() -> codeHost.signature(headers()), HttpStatus.UNAUTHORIZED, "missing_signature");
        rejected(() -> codeHost.signature(headers("X-Hub-Signature-256", HEX)), HttpStatus.UNAUTHORIZED, "malformed_signature");
        rejected(() -> codeHost.signature(headers("X-Hub-Signature-256", "sha256=" + HEX.substring(2))),
                HttpStatus.UNAUTHORIZED, "malformed_signature");
        rejected(() -> codeHost.deliveryId(headers()), HttpStatus.BAD_REQUEST, "missing_header");
    }

    @Test
    void theCodeHostCommandNamesTheEventActionSenderAndRepository() {
        ObjectNode payload = (ObjectNode) IngressJson.REQUESTS.readTree(
                "{\"action\":\"opened\",\"repository\":{\"full_name\":\"acme/api\"},\"sender\":{\"login\":\"octocat\"}}");
        ReceiveWebhook command = codeHost.command(headers("X-GitHub-Event", "pull_request"), "d-1", payload);
        assertThat(command).isEqualTo(new ReceiveWebhook(Tool.CODE_HOST, "d-1", "pull_request", "opened", "octocat",
                "repository", "acme/api", payload));
        rejected(() -> codeHost.command(headers(), "d-1", payload), HttpStatus.BAD_REQUEST, "missing_header");
    }

    @Test
    void theIssueTrackerSignatureIsPlainHexUnderEitherName() {
        assertThat(HmacSignature.verifies(SECRET, BODY, issueTracker.signature(headers("Linear-Signature", HEX)))).isTrue();
        assertThat(HmacSignature.verifies(SECRET, BODY, issueTracker.signature(headers("Issue-Tracker-Signature", HEX)))).isTrue();
        rejected(() -> issueTracker.signature(headers()), HttpStatus.UNAUTHORIZED, "missing_signature");
        rejected(() -> issueTracker.signature(headers("Linear-Signature", "not-hex")), HttpStatus.UNAUTHORIZED,
                "malformed_signature");
    }

    @Test
    void theIssueTrackerTimestampMustBePresentAndWithinTheWindow() {
        Instant now = Instant.parse("2026-03-01T10:00:00Z");
        issueTracker.checkFreshness(stamped(now.minusSeconds(299).toEpochMilli()), now);
        issueTracker.checkFreshness(stamped(now.plusSeconds(59).toEpochMilli()), now);
        rejected(() -> issueTracker.checkFreshness(stamped(now.minusSeconds(301).toEpochMilli()), now), HttpStatus.UNAUTHORIZED,
                "timestamp");
        rejected(() -> issueTracker.checkFreshness(stamped(now.plusSeconds(61).toEpochMilli()), now), HttpStatus.UNAUTHORIZED,
                "timestamp");
        rejected(() -> issueTracker.checkFreshness((ObjectNode) IngressJson.REQUESTS.readTree("{}"), now),
                HttpStatus.UNAUTHORIZED, "timestamp");
        rejected(() -> issueTracker.checkFreshness((ObjectNode) IngressJson.REQUESTS.readTree(
                "{\"webhookTimestamp\":\"1772359200000\"}"), now), HttpStatus.UNAUTHORIZED, "timestamp");
    }

    @Test
    void theIssueTrackerCommandTakesItsKindFromThePayloadAndTheActorsStableIdAsTheAgent() {
        ObjectNode payload = (ObjectNode) IngressJson.REQUESTS.readTree("""
                {"action":"create","type":"Issue","organizationId":"org-1","data":{"teamId":"team-1"},
                 "actor":{"id":"u-1","name":"Ada"}}""");
        assertThat(issueTracker.command(headers(), "l-1", payload)).isEqualTo(new ReceiveWebhook(Tool.ISSUE_TRACKER, "l-1",
                "Issue", "create", "u-1", "team", "team-1", payload));
        // a display name alone names no agent: anyone can call themselves "release-bot"
        ObjectNode named = (ObjectNode) IngressJson.REQUESTS.readTree(
                "{\"action\":\"create\",\"type\":\"Issue\",\"organizationId\":\"org-1\",\"actor\":{\"name\":\"release-bot\"}}");
        assertThat(issueTracker.command(headers(), "l-2", named).sender()).isNull();
    }

    private static ObjectNode stamped(long millis) {
        return (ObjectNode) IngressJson.REQUESTS.readTree("{\"webhookTimestamp\":" + millis + "}");
    }
}
