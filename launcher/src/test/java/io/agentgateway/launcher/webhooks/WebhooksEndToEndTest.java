package io.agentgateway.launcher.webhooks;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.WebhookSender.CODE_HOST;
import static io.agentgateway.launcher.support.WebhookSender.ISSUE_TRACKER;
import static io.agentgateway.launcher.support.WebhookSender.anotherEvent;
import static io.agentgateway.launcher.support.WebhookSender.codeHostHeaders;
import static io.agentgateway.launcher.support.WebhookSender.gitHubHeaders;
import static io.agentgateway.launcher.support.WebhookSender.linearHeaders;
import static io.agentgateway.launcher.support.WebhookSender.payload;
import static io.agentgateway.launcher.support.WebhookSender.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.RestrictedReplica;
import io.agentgateway.launcher.support.WebhookSender.Response;
import io.agentgateway.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;

/**
 * Inbound webhooks through the whole gateway, with the real vendors' payload shapes: verified,
 * deduplicated (also across a decision-stream restart on an empty state directory, i.e. a new
 * replica restoring from the changelog), matched to workspaces and evaluated, stored exactly once;
 * every rejection leaves no trace in the log or the tables.
 */
class WebhooksEndToEndTest {
    private static final Duration PROJECTED = Duration.ofSeconds(30);

    /** A code-host connection watching one repository of a fresh organization. */
    record Watched(TestWorkspace ws, String org, String repoName, String secret) {
        Map<String, String> names() {
            return Map.of("org", org, "repo_name", repoName);
        }
    }

    private static String unique(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static Watched watchCodeHost(TestWorkspace ws, String org, List<String> repos, String orgConfig) {
        String secret = unique("whsec");
        Map<String, Object> config = new HashMap<>();
        config.put("repos", repos);
        if (orgConfig != null) {
            config.put("org", orgConfig);
        }
        var put = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/code_host", ws.ownerJwt(),
                Map.of("config", config, "webhook_secret", secret));
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
        awaitConnectionProjected(ws, "code_host");
        return new Watched(ws, org, repos.isEmpty() ? "any" : repos.get(0).substring(repos.get(0).indexOf('/') + 1), secret);
    }

    private static void awaitConnectionProjected(TestWorkspace ws, String tool) {
        await().atMost(PROJECTED).until(() -> count(
                "select count(*) from tool_connections where workspace_id = ?::uuid and tool = ? and sealed_webhook_secret is not null",
                ws.id(), tool) == 1);
    }

    private static long count(String sql, Object... args) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static List<Map<String, Object>> webhookRows(String deliveryId) throws Exception {
        try (Connection c = GatewayHarness.db(); PreparedStatement s = c.prepareStatement("""
                select source, delivery_id, event_kind, action, workspace_id::text as workspace_id, processed, decision,
                       audit_log_id::text as audit_log_id, payload_excerpt
                  from webhook_events where delivery_id = ? order by workspace_id""")) {
            s.setString(1, deliveryId);
            List<Map<String, Object>> rows = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                    }
                    rows.add(row);
                }
            }
            return rows;
        }
    }

    private static List<Map<String, Object>> awaitRows(String deliveryId, int expected) {
        return await().atMost(PROJECTED).until(() -> webhookRows(deliveryId), rows -> rows.size() >= expected);
    }

    private static void assertOk(Response response, boolean duplicate) {
        assertThat(response.status()).as(response.rawBody()).isEqualTo(200);
        assertThat(response.body().get("ok").booleanValue()).isTrue();
        assertThat(response.body().get("duplicate").booleanValue()).isEqualTo(duplicate);
    }

    private static void assertRefused(Response response, int status, String error) {
        assertThat(response.status()).as(response.rawBody()).isEqualTo(status);
        assertThat(response.body().get("ok").booleanValue()).isFalse();
        assertThat(response.body().get("error").asString()).contains(error);
    }

    @Test
    void aVerifiedPushIsEvaluatedAuditedAndStoredOnceAndItsReplayIsADuplicateAlsoAfterARestart() throws Exception {
        String org = unique("acme");
        Watched watched = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(org + "/api"), null);
        byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        String delivery = UUID.randomUUID().toString();

        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", delivery)), false);

        Map<String, Object> row = awaitRows(delivery, 1).get(0);
        assertThat(row).containsEntry("source", "code_host").containsEntry("event_kind", "push")
                .containsEntry("action", "push").containsEntry("workspace_id", watched.ws().id())
                .containsEntry("processed", true).containsEntry("decision", "allow");
        assertThat((String) row.get("payload_excerpt")).contains(org + "/api").contains("naïve café ✓");
        assertThat(count("select count(*) from audit_log where id = ?::uuid and source = 'webhook' and action = 'push'"
                + " and risk_level = 'medium' and agent_id = 'Codertocat' and resource_id = ?",
                row.get("audit_log_id"), org + "/api")).isEqualTo(1);

        // the same delivery again, under the neutral header names this time
        assertOk(post(CODE_HOST, body, codeHostHeaders(watched.secret(), body, "push", delivery)), true);

        // a new replica: the decision stream restarts on an empty state directory and restores from the changelog
        EmbeddedGateway gateway = GatewayHarness.gateway();
        gateway.stopDecisionStream();
        gateway.startDecisionStream(Map.of("gateway.decision.state-dir",
                Files.createTempDirectory("webhook-replica-").toString()));
        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", delivery)), true);

        // a later delivery of the same workspace is projected after anything the replays could have written
        // (another event: the same body under a new delivery id is a duplicate too)
        String marker = UUID.randomUUID().toString();
        byte[] markerBody = anotherEvent(body);
        assertOk(post(CODE_HOST, markerBody, gitHubHeaders(watched.secret(), markerBody, "push", marker)), false);
        awaitRows(marker, 1);
        assertThat(webhookRows(delivery)).hasSize(1);
        assertThat(count("select count(*) from audit_log where workspace_id = ?::uuid and source = 'webhook'",
                watched.ws().id())).as("the delivery's one evaluation and the marker's").isEqualTo(2);
    }

    @Test
    void aRotatedSecretOrADeletedConnectionCountsFromTheNextDeliveryWhateverTheReadModelShows() throws Exception {
        String org = unique("acme");
        Watched watched = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(org + "/api"), null);
        byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        String tools = "/admin/v1/workspaces/" + watched.ws().id() + "/tools/code_host";
        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", UUID.randomUUID().toString())), false);
        String[] oldRow = readModelSecretAndVersion(watched.ws().id());

        var rotated = client().send("POST", tools + "/webhook-secret", watched.ws().ownerJwt(), null);
        assertThat(rotated.status()).as(rotated.rawBody()).isEqualTo(200);
        String secret = rotated.body().at("/webhook/secret").asString();
        // at once, no waiting: the old secret counts no more, the new one does
        assertRefused(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", UUID.randomUUID().toString())), 401,
                "Invalid webhook signature");
        byte[] next = anotherEvent(body);
        assertOk(post(CODE_HOST, next, gitHubHeaders(secret, next, "push", UUID.randomUUID().toString())), false);

        // a read model that still shows the old secret (a lagging projector, faked by writing the old row back)
        // decides nothing: the old secret verifies against the row, the decision stream answers stale and the
        // current secret does not verify it; the new secret does not verify against the row, the stream gives
        // the current connection and it does
        writeReadModelSecretAndVersion(watched.ws().id(), oldRow);
        assertRefused(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", UUID.randomUUID().toString())), 401,
                "Invalid webhook signature");
        byte[] later = anotherEvent(body);
        assertOk(post(CODE_HOST, later, gitHubHeaders(secret, later, "push", UUID.randomUUID().toString())), false);

        var deleted = client().send("DELETE", tools, watched.ws().ownerJwt(), null);
        assertThat(deleted.status()).as(deleted.rawBody()).isEqualTo(200);
        // at once, also while the read model may still show the connection (a new event: a body recorded before
        // is answered duplicate, whatever became of the connection since)
        byte[] afterDelete = anotherEvent(body);
        assertRefused(post(CODE_HOST, afterDelete, gitHubHeaders(secret, afterDelete, "push", UUID.randomUUID().toString())), 401,
                "Invalid webhook signature");
    }

    private static String[] readModelSecretAndVersion(String workspaceId) throws Exception {
        try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                "select sealed_webhook_secret, version from tool_connections where workspace_id = ?::uuid and tool = 'code_host'")) {
            s.setString(1, workspaceId);
            var rs = s.executeQuery();
            assertThat(rs.next()).isTrue();
            return new String[] {rs.getString(1), Long.toString(rs.getLong(2))};
        }
    }

    private static void writeReadModelSecretAndVersion(String workspaceId, String[] row) throws Exception {
        try (var c = GatewayHarness.db(); var s = c.prepareStatement(
                "update tool_connections set sealed_webhook_secret = ?, version = ? where workspace_id = ?::uuid and tool = 'code_host'")) {
            s.setString(1, row[0]);
            s.setLong(2, Long.parseLong(row[1]));
            s.setString(3, workspaceId);
            assertThat(s.executeUpdate()).isEqualTo(1);
        }
    }

    @Test
    void aPolicyOnWebhooksDecidesAPullRequestAndTheDecisionIsStored() throws Exception {
        String org = unique("acme");
        Watched watched = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(), org);
        var policy = client().send("POST", "/admin/v1/workspaces/" + watched.ws().id() + "/policies", watched.ws().ownerJwt(),
                Map.of("name", "hold outside pull requests", "priority", 1, "decision", "block",
                        "match", Map.of("tools", List.of("code_host"), "actions", List.of("pull_request.*"),
                                "sources", List.of("webhook"))));
        assertThat(policy.status()).as(policy.rawBody()).isIn(200, 201);
        byte[] body = payload("code-host-pull-request-opened.json", Map.of("org", org, "repo_name", "web"));
        String delivery = UUID.randomUUID().toString();

        assertOk(post(CODE_HOST, body, codeHostHeaders(watched.secret(), body, "pull_request", delivery)), false);

        assertThat(awaitRows(delivery, 1).get(0)).containsEntry("action", "pull_request.opened")
                .containsEntry("decision", "block").containsEntry("processed", true);
    }

    @Test
    void everyRejectionIsAClearErrorAndNothingReachesTheLogOrTheTables() throws Exception {
        String org = unique("acme");
        Watched watched = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(org + "/api"), null);
        byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        List<String> rejected = new ArrayList<>();
        java.util.function.Supplier<String> id = () -> {
            String delivery = "rejected-" + UUID.randomUUID();
            rejected.add(delivery);
            return delivery;
        };

        // tampered body: the signature of the original
        byte[] tampered = new String(body, StandardCharsets.UTF_8).replace("refs/heads/main", "refs/heads/prod")
                .getBytes(StandardCharsets.UTF_8);
        assertRefused(post(CODE_HOST, tampered, gitHubHeaders(watched.secret(), body, "push", id.get())), 401,
                "Invalid webhook signature");
        // wrong secret
        assertRefused(post(CODE_HOST, body, gitHubHeaders("not-the-secret", body, "push", id.get())), 401,
                "Invalid webhook signature");
        // missing signature
        Map<String, String> unsigned = gitHubHeaders(watched.secret(), body, "push", id.get());
        unsigned.remove("X-Hub-Signature-256");
        assertRefused(post(CODE_HOST, body, unsigned), 401, "Missing webhook signature");
        // sha1 only, even a correct one
        Map<String, String> sha1 = gitHubHeaders(watched.secret(), body, "push", id.get());
        sha1.remove("X-Hub-Signature-256");
        sha1.put("X-Hub-Signature", "sha1=" + "0".repeat(40));
        assertRefused(post(CODE_HOST, body, sha1), 401, "SHA-1");
        Map<String, String> sha1InThe256Header = gitHubHeaders(watched.secret(), body, "push", id.get());
        sha1InThe256Header.put("X-Hub-Signature-256", "sha1=" + "0".repeat(40));
        assertRefused(post(CODE_HOST, body, sha1InThe256Header), 401, "SHA-1");
        // no delivery id
        Map<String, String> noDelivery = gitHubHeaders(watched.secret(), body, "push", "unused");
        noDelivery.remove("X-GitHub-Delivery");
        assertRefused(post(CODE_HOST, body, noDelivery), 400, "X-Code-Host-Delivery");
        // malformed JSON with a valid signature
        byte[] malformed = Arrays.copyOf(body, body.length - 2);
        assertRefused(post(CODE_HOST, malformed, gitHubHeaders(watched.secret(), malformed, "push", id.get())), 400,
                "JSON object");
        // oversized (the limit is 512 KiB), validly signed
        byte[] huge = ("{\"repository\":{\"full_name\":\"" + org + "/api\"},\"pad\":\"" + "x".repeat(600 * 1024) + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        assertRefused(post(CODE_HOST, huge, gitHubHeaders(watched.secret(), huge, "push", id.get())), 413, "exceeds");
        // a valid delivery afterwards still goes through: the refusals changed nothing
        String valid = UUID.randomUUID().toString();
        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", valid)), false);
        awaitRows(valid, 1);

        for (String delivery : rejected) {
            assertThat(webhookRows(delivery)).as(delivery).isEmpty();
        }
        assertThat(commandsMentioning(rejected)).isEmpty();
        assertThat(commandsMentioning(List.of(valid))).hasSize(1);
        var metrics = client().send("GET", "/actuator/metrics/gateway.webhooks.rejected", null, null);
        if (metrics.status() == 200) {
            assertThat(metrics.body().at("/measurements/0/value").asDouble()).isGreaterThanOrEqualTo(rejected.size());
        }
    }

    @Test
    void anUnmatchedRepositoryIsStoredWithNoWorkspaceAndAnsweredLikeABadSignature() throws Exception {
        String org = unique("nobody");
        byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        String delivery = UUID.randomUUID().toString();

        Response response = post(CODE_HOST, body, gitHubHeaders("whatever", body, "push", delivery));

        assertRefused(response, 401, "Invalid webhook signature");
        Map<String, Object> row = awaitRows(delivery, 1).get(0);
        assertThat(row).containsEntry("workspace_id", null).containsEntry("processed", false)
                .containsEntry("decision", null).containsEntry("source", "code_host");
        // a replay is answered the same and not stored twice
        assertRefused(post(CODE_HOST, body, gitHubHeaders("whatever", body, "push", delivery)), 401,
                "Invalid webhook signature");
        // a later unmatched delivery (same key, same partition) is projected after anything the replay wrote
        // (another body: the same body under a new delivery id is a duplicate too)
        String marker = UUID.randomUUID().toString();
        byte[] markerBody = payload("code-host-push.json", Map.of("org", unique("nobody"), "repo_name", "api"));
        post(CODE_HOST, markerBody, gitHubHeaders("whatever", markerBody, "push", marker));
        awaitRows(marker, 1);
        assertThat(webhookRows(delivery)).hasSize(1);
    }

    @Test
    void severalWorkspacesWatchingOneOrganizationEachGetTheDeliveryTheirSecretVerifies() throws Exception {
        String org = unique("shared");
        Watched first = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(), org);
        TestWorkspace second = GatewayHarness.newWorkspace();
        var put = client().send("PUT", "/admin/v1/workspaces/" + second.id() + "/tools/code_host", second.ownerJwt(),
                Map.of("config", Map.of("org", org.toUpperCase()), "webhook_secret", first.secret()));
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
        awaitConnectionProjected(second, "code_host");
        Watched other = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(org + "/web"), null);
        byte[] body = payload("code-host-pull-request-opened.json", Map.of("org", org, "repo_name", "web"));
        String delivery = UUID.randomUUID().toString();

        assertOk(post(CODE_HOST, body, gitHubHeaders(first.secret(), body, "pull_request", delivery)), false);

        List<Map<String, Object>> rows = awaitRows(delivery, 2);
        assertThat(rows).extracting(r -> r.get("workspace_id"))
                .containsExactlyInAnyOrder(first.ws().id(), second.id())
                .doesNotContain(other.ws().id());
        assertOk(post(CODE_HOST, body, gitHubHeaders(first.secret(), body, "pull_request", delivery)), true);
    }

    @Test
    void issueTrackerDeliveriesAreVerifiedAndTheirTimestampsChecked() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        String organizationId = UUID.randomUUID().toString();
        String teamId = UUID.randomUUID().toString();
        String secret = unique("lin_wh");
        var put = client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/tools/issue_tracker", ws.ownerJwt(),
                Map.of("config", Map.of("organization_id", organizationId, "team_id", teamId), "webhook_secret", secret));
        assertThat(put.status()).as(put.rawBody()).isEqualTo(200);
        awaitConnectionProjected(ws, "issue_tracker");
        long now = System.currentTimeMillis();
        java.util.function.LongFunction<byte[]> at = stamp -> payload("issue-tracker-issue-create.json", Map.of(
                "organization_id", organizationId, "team_id", teamId, "webhook_timestamp", Long.toString(stamp)));

        byte[] fresh = at.apply(now);
        String delivery = UUID.randomUUID().toString();
        assertOk(post(ISSUE_TRACKER, fresh, linearHeaders(secret, fresh, delivery)), false);
        assertThat(awaitRows(delivery, 1).get(0)).containsEntry("source", "issue_tracker")
                .containsEntry("event_kind", "Issue").containsEntry("action", "issue.create")
                .containsEntry("workspace_id", ws.id()).containsEntry("processed", true);
        assertOk(post(ISSUE_TRACKER, fresh, linearHeaders(secret, fresh, delivery)), true);

        byte[] stale = at.apply(now - Duration.ofMinutes(6).toMillis());
        String staleDelivery = UUID.randomUUID().toString();
        assertRefused(post(ISSUE_TRACKER, stale, linearHeaders(secret, stale, staleDelivery)), 401, "older than 5 minutes");
        byte[] future = at.apply(now + Duration.ofMinutes(10).toMillis());
        String futureDelivery = UUID.randomUUID().toString();
        assertRefused(post(ISSUE_TRACKER, future, linearHeaders(secret, future, futureDelivery)), 401, "in the future");
        byte[] missing = new String(fresh, StandardCharsets.UTF_8)
                .replace("\"webhookTimestamp\": " + now + ",", "").getBytes(StandardCharsets.UTF_8);
        String missingDelivery = UUID.randomUUID().toString();
        assertRefused(post(ISSUE_TRACKER, missing, linearHeaders(secret, missing, missingDelivery)), 401,
                "webhookTimestamp");
        byte[] tampered = new String(fresh, StandardCharsets.UTF_8).replace("Checkout fails", "Checkout works")
                .getBytes(StandardCharsets.UTF_8);
        String tamperedDelivery = UUID.randomUUID().toString();
        assertRefused(post(ISSUE_TRACKER, tampered, linearHeaders(secret, fresh, tamperedDelivery)), 401,
                "Invalid webhook signature");

        // an organization nobody watches: stored with no workspace, answered like a bad signature
        byte[] elsewhere = payload("issue-tracker-issue-create.json", Map.of("organization_id", UUID.randomUUID().toString(),
                "team_id", UUID.randomUUID().toString(), "webhook_timestamp", Long.toString(now)));
        String unmatched = UUID.randomUUID().toString();
        assertRefused(post(ISSUE_TRACKER, elsewhere, linearHeaders("unknown", elsewhere, unmatched)), 401,
                "Invalid webhook signature");
        assertThat(awaitRows(unmatched, 1).get(0)).containsEntry("workspace_id", null).containsEntry("processed", false);

        for (String refused : List.of(staleDelivery, futureDelivery, missingDelivery, tamperedDelivery)) {
            assertThat(webhookRows(refused)).isEmpty();
        }
        assertThat(commandsMentioning(List.of(staleDelivery, futureDelivery, missingDelivery, tamperedDelivery))).isEmpty();
    }

    /** Every record of the commands topic whose value mentions one of the texts. */
    @Test
    void anUnmatchedDeliveryIsKeptAsABoundedExcerptOnTheCommandsTopicAndInTheTable() throws Exception {
        String org = unique("stranger");
        tools.jackson.databind.node.ObjectNode push = (tools.jackson.databind.node.ObjectNode) io.agentgateway.schemas.GatewayJson.MAPPER
                .readTree(payload("code-host-push.json", Map.of("org", org, "repo_name", "api")));
        push.put("padding", "x".repeat(240 * 1024));
        byte[] body = io.agentgateway.schemas.GatewayJson.MAPPER.writeValueAsBytes(push);
        String delivery = UUID.randomUUID().toString();

        assertRefused(post(CODE_HOST, body, gitHubHeaders("random-" + UUID.randomUUID(), body, "push", delivery)), 401,
                "Invalid webhook signature");

        Map<String, Object> row = awaitRows(delivery, 1).get(0);
        assertThat(row).containsEntry("workspace_id", null).containsEntry("processed", false);
        assertThat(((String) row.get("payload_excerpt")).getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(4096);
        assertThat(count("select count(*) from webhook_events where delivery_id = ? and payload_truncated and payload_bytes > ?",
                delivery, 240 * 1024)).isEqualTo(1);
        // the command kept for ever on the commands topic carries the excerpt, not the 240 KiB payload
        assertThat(commandsMentioning(List.of(delivery))).singleElement()
                .satisfies(command -> assertThat(command.getBytes(StandardCharsets.UTF_8).length).isLessThan(8 * 1024));
    }

    @Test
    void unmatchedDeliveriesAreRecordedWithinARatePerSourceAddress() throws Exception {
        String base = RestrictedReplica.baseUrl();
        String org = unique("flood");
        List<String> deliveries = new ArrayList<>();
        long started = System.nanoTime();
        for (int i = 0; i < 12; i++) {
            byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api-" + i));
            String delivery = UUID.randomUUID().toString();
            deliveries.add(delivery);
            assertRefused(post(base, CODE_HOST, body, gitHubHeaders("random", body, "push", delivery)), 401,
                    "Invalid webhook signature");
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds() + 1;
        String marks = String.join(",", java.util.Collections.nCopies(deliveries.size(), "?"));
        String query = "select count(*) from webhook_events where delivery_id in (" + marks + ")";
        await().atMost(PROJECTED).until(() -> count(query, deliveries.toArray()) >= RestrictedReplica.UNMATCHED_BURST);
        // the burst, plus one a second refilled while they were sent; the rest answered alike and only counted
        await().during(Duration.ofSeconds(1)).atMost(PROJECTED)
                .until(() -> count(query, deliveries.toArray()) <= RestrictedReplica.UNMATCHED_BURST + seconds);
        assertThat(RestrictedReplica.UNMATCHED_BURST + seconds).isLessThan(deliveries.size());
    }

    @Test
    void aCapturedDeliverySentAgainUnderANewDeliveryIdIsADuplicateAndNotEvaluatedAgain() throws Exception {
        String org = unique("replayed");
        Watched watched = watchCodeHost(GatewayHarness.newWorkspace(), org, List.of(org + "/api"), null);
        byte[] body = payload("code-host-push.json", Map.of("org", org, "repo_name", "api"));
        String first = UUID.randomUUID().toString();
        String second = UUID.randomUUID().toString();

        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", first)), false);
        // the same signed bytes, captured and sent again with a delivery id of the sender's choosing
        assertOk(post(CODE_HOST, body, gitHubHeaders(watched.secret(), body, "push", second)), true);

        // answered duplicate by the decision stream itself: it recorded and evaluated nothing for the second
        awaitRows(first, 1);
        await().atMost(PROJECTED).during(Duration.ofMillis(500)).until(() -> count(
                "select count(*) from audit_log where workspace_id = ?::uuid and source = 'webhook'", watched.ws().id()) == 1);
        assertThat(webhookRows(second)).isEmpty();
    }

    private static List<String> commandsMentioning(List<String> texts) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, GatewayHarness.gateway().bootstrapServers()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(Topics.COMMANDS.name()).stream()
                    .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<String> found = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    String value = new String(record.value(), StandardCharsets.UTF_8);
                    if (texts.stream().anyMatch(value::contains)) {
                        found.add(value);
                    }
                }
            }
            return found;
        }
    }
}
