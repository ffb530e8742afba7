package io.agentgateway.launcher.evidence;

import static io.agentgateway.launcher.support.GatewayHarness.client;
import static io.agentgateway.launcher.support.GatewayHarness.db;
import static io.agentgateway.launcher.support.GatewayHarness.evaluate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.MerkleProofs;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.cli.AuditVerifyCommand;
import io.agentgateway.launcher.cli.ExportCommand;
import io.agentgateway.launcher.cli.VerifyCommand;
import io.agentgateway.launcher.support.GatewayHarness;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The audit log's evidence end to end, on the embedded gateway with its real broker and PostgreSQL: a workspace's
 * history sealed by the decision stream and copied by the projector verifies offline (an export through the admin API
 * and {@code launcher export --evidence}, checked by {@code audit-verify} with the gateway's pinned key) and live
 * ({@code POST .../evidence/verify}, {@code launcher verify}); then each way of tampering with PostgreSQL is caught by
 * both, naming the first bad sequence: a decision changed, a payload changed, a row deleted, two rows swapped, the tail
 * truncated (with and without its checkpoints), a row moved to another workspace, a checkpoint re-signed with another
 * key, a forked log. A payload erased by the admin action leaves the log verifiable. Proofs from the admin API verify
 * with the library alone.
 */
class EvidenceEndToEndTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    @TempDir
    Path files;

    /** A workspace whose history is sealed, projected and covered by a checkpoint. */
    record Sealed(TestWorkspace ws, Map<String, Long> sequences, List<String> blocked, long size) {
        String path(String rest) {
            return "/admin/v1/workspaces/" + ws.id() + rest;
        }
    }

    private static NoteKeys.VerifierKey gatewayKey() {
        return NoteKeys.parseVerifier(GatewayHarness.gateway().secrets().evidencePublicKey());
    }

    /**
     * Evaluations allowed, held and blocked (with payloads), the held ones approved, a kill-switch call and a policy: audit
     * rows and entries of other kinds, all projected, the log's latest checkpoint covering every entry.
     */
    private static Sealed sealedWorkspace() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        List<String> blocked = new ArrayList<>();
        List<String> held = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            assertThat(evaluate(ws, withPayload("docs", "page.read", "low", i)).text("decision")).isEqualTo("allow");
            var hold = evaluate(ws, withPayload("chat", "channel.archive", "high", i));
            assertThat(hold.text("decision")).isEqualTo("require_approval");
            held.add(hold.text("approvalRequestId"));
            var block = evaluate(ws, withPayload("chat", "workspace.delete", "critical", i));
            assertThat(block.text("decision")).isEqualTo("block");
            blocked.add(block.text("auditLogId"));
        }
        assertThat(GatewayHarness.killSwitch(ws, "pause_tool", "mcp").status()).isEqualTo(200);
        var policy = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/policies", ws.ownerJwt(), Map.of(
                "name", "no deletes", "priority", 10, "decision", "block", "match", Map.of("actions", List.of("*.delete"))));
        assertThat(policy.status()).as(policy.rawBody()).isEqualTo(201);
        for (String approval : held) {
            var approved = client().send("POST", "/admin/v1/workspaces/" + ws.id() + "/approvals/" + approval + "/approve",
                    ws.ownerJwt(), Map.of());
            assertThat(approved.status()).as(approved.rawBody()).isEqualTo(200);
        }
        // 6 evaluations, 2 approval requests, the kill switch, the policy, 2 reviews
        long entries = 12;
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> count("with x as (select ?::uuid as w) select (select count(*) from evidence_entries, x"
                        + " where workspace_id = x.w) + (select count(*) from audit_log, x where workspace_id = x.w"
                        + " and sequence is not null)", ws.id()) == entries
                        && count("select coalesce(max(tree_size), 0) from evidence_checkpoints where workspace_id = ?::uuid", ws.id()) == entries);
        Map<String, Long> sequences = new LinkedHashMap<>();
        try (Connection db = db(); PreparedStatement query = db.prepareStatement(
                "select id::text, sequence from audit_log where workspace_id = ?::uuid order by sequence")) {
            query.setString(1, ws.id());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    sequences.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        assertThat(sequences).hasSize(7);
        return new Sealed(ws, sequences, blocked, entries);
    }

    private static Map<String, Object> withPayload(String tool, String action, String risk, int i) {
        return Map.of("tool", tool, "action", action, "riskLevel", risk, "agentId", "agent-1",
                "payload", Map.of("n", i, "note", "évidence " + i, "items", List.of(1, 2, 3)));
    }

    // ---- an untouched log, and what the admin API serves ----

    @Test
    void anUntouchedLogVerifiesOfflineAndLiveAndItsProofsVerifyWithTheLibraryAlone() throws Exception {
        Sealed sealed = sealedWorkspace();
        JsonNode live = liveCheck(sealed, null);
        assertThat(live.get("verified").asBoolean()).as(live.get("report").asString()).isTrue();
        assertThat(live.get("entriesChecked").asLong()).isEqualTo(12);
        assertThat(live.get("treeSize").asLong()).isEqualTo(12);
        assertThat(live.get("computedRoot").asString()).isEqualTo(live.get("rootHash").asString());
        assertThat(live.get("payloadsChecked").asLong()).isEqualTo(6);
        assertThat(live.get("signature").asString()).startsWith("Ed25519 by " + gatewayKey().name());

        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""));
        assertThat(offline.exit()).as(offline.out()).isZero();
        assertThat(offline.out()).contains("entries checked: 12 (sequence 0 to 11, every entry of the checkpoint)",
                "(matches the checkpoint)", "signature: Ed25519 by " + gatewayKey().name(), "result: OK");
        // the same through the command line: launcher export --evidence, launcher verify
        Offline cli = offline(sealed, exportThroughTheCommandLine(sealed));
        assertThat(cli.exit()).as(cli.out()).isZero();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int verified = new VerifyCommand(print(out), print(new ByteArrayOutputStream())).execute(List.of("--workspace", sealed.ws().id(),
                "--key", gatewayKey().text(), "--jdbc-url", GatewayHarness.gateway().jdbcUrl(), "--db-user",
                GatewayHarness.gateway().postgresUser(), "--db-password", GatewayHarness.gateway().postgresPassword()),
                LauncherSettings.ephemeral(files));
        assertThat(verified).as(text(out)).isZero();
        assertThat(text(out)).contains("result: OK");

        // a partial export (a time range): each entry with its inclusion proof
        Offline partial = offline(sealed, exportThroughTheApi(sealed, "?from=2020-01-01T00:00:00Z&to=2099-01-01T00:00:00Z"));
        assertThat(partial.exit()).as(partial.out()).isZero();
        assertThat(partial.out()).contains("inclusion proofs verified: ");

        // the public keys
        var keys = client().send("GET", sealed.path("/evidence/public-keys"), sealed.ws().ownerJwt(), null);
        assertThat(keys.status()).isEqualTo(200);
        assertThat(keys.body().get("keys").get(0).asString()).isEqualTo(gatewayKey().text());

        // every audit entry's inclusion proof leads to the signed root
        var latest = client().send("GET", sealed.path("/evidence/checkpoints/latest"), sealed.ws().ownerJwt(), null);
        assertThat(latest.status()).as(latest.rawBody()).isEqualTo(200);
        SignedNote note = SignedNote.parse(latest.body().get("checkpoint").get("note").asString());
        assertThat(note.verify(List.of(gatewayKey())).ok()).isTrue();
        Checkpoint checkpoint = Checkpoint.parse(note.text());
        assertThat(checkpoint.size()).isEqualTo(12);
        MerkleHasher hasher = new MerkleHasher();
        for (Map.Entry<String, Long> row : sealed.sequences().entrySet()) {
            var proof = client().send("GET", sealed.path("/audit-log/" + row.getKey() + "/inclusion-proof"), sealed.ws().ownerJwt(), null);
            assertThat(proof.status()).as(proof.rawBody()).isEqualTo(200);
            assertThat(proof.body().get("sequence").asLong()).isEqualTo(row.getValue());
            // the leaf from the entry the response shows: recomputable by anyone from its bytes
            byte[] leaf = hasher.leaf(Base64.getDecoder().decode(proof.body().get("entry").get("encoded").asString()));
            assertThat(Hashes.base64(leaf)).isEqualTo(proof.body().get("leafHash").asString());
            List<byte[]> path = new ArrayList<>();
            proof.body().get("proof").forEach(node -> path.add(Hashes.fromBase64(node.asString())));
            assertThat(MerkleProofs.verifyInclusion(row.getValue(), 12, leaf, path, checkpoint.rootHash(), hasher)).isTrue();
        }

        // consistency between two checkpoints: an earlier one (any size the log had) and the latest
        List<JsonNode> earlier = checkpoints(sealed);
        JsonNode first = earlier.get(0);
        long firstSize = first.get("treeSize").asLong();
        var consistency = client().send("GET", sealed.path("/evidence/consistency-proof?from=" + firstSize), sealed.ws().ownerJwt(), null);
        assertThat(consistency.status()).as(consistency.rawBody()).isEqualTo(200);
        List<byte[]> consistencyPath = new ArrayList<>();
        consistency.body().get("proof").forEach(node -> consistencyPath.add(Hashes.fromBase64(node.asString())));
        assertThat(firstSize == 12 || MerkleProofs.verifyConsistency(firstSize, 12, consistencyPath,
                Hashes.fromBase64(first.get("rootHash").asString()), checkpoint.rootHash(), hasher)).isTrue();

        // the body of a witness's add-checkpoint request: old size, proof lines, a blank line, the checkpoint
        HttpResponse<String> witness = get(sealed.path("/evidence/witness/add-checkpoint?old=0"), sealed.ws().ownerJwt());
        assertThat(witness.statusCode()).isEqualTo(200);
        assertThat(witness.body()).isEqualTo("old 0\n\n" + note.encoded());
    }

    @Test
    void theEvidenceEndpointsAnswerBadInputAndOtherWorkspacesAsDocumented() throws Exception {
        Sealed sealed = sealedWorkspace();
        TestWorkspace other = GatewayHarness.newWorkspace();
        String someone = sealed.sequences().keySet().iterator().next();
        // another workspace's audit entry is not found, whoever asks
        var elsewhere = client().send("GET", "/admin/v1/workspaces/" + other.id() + "/audit-log/" + someone + "/inclusion-proof",
                other.ownerJwt(), null);
        assertThat(elsewhere.status()).isEqualTo(404);
        assertThat(elsewhere.body().get("ok").asBoolean()).isFalse();
        assertThat(elsewhere.body().get("correlationId")).isNotNull();
        assertThat(client().send("POST", "/admin/v1/workspaces/" + other.id() + "/audit-log/" + someone + "/erase-payload",
                other.ownerJwt(), Map.of()).status()).isEqualTo(404);
        // bad input
        assertThat(client().send("GET", sealed.path("/audit-log/not-a-uuid/inclusion-proof"), sealed.ws().ownerJwt(), null).status()).isEqualTo(400);
        assertThat(client().send("GET", sealed.path("/audit-log/" + someone + "/inclusion-proof?treeSize=-1"), sealed.ws().ownerJwt(), null)
                .status()).isEqualTo(400);
        assertThat(client().send("GET", sealed.path("/evidence/checkpoints/abc"), sealed.ws().ownerJwt(), null).status()).isEqualTo(400);
        assertThat(client().send("GET", sealed.path("/evidence/consistency-proof"), sealed.ws().ownerJwt(), null).status()).isEqualTo(400);
        assertThat(client().send("GET", sealed.path("/evidence/consistency-proof?from=5&to=3"), sealed.ws().ownerJwt(), null).status())
                .isEqualTo(400);
        assertThat(client().send("POST", sealed.path("/evidence/verify"), sealed.ws().ownerJwt(),
                Map.of("previousCheckpoint", "not a note")).status()).isEqualTo(400);
        assertThat(client().send("POST", sealed.path("/audit-log/" + someone + "/erase-payload"), sealed.ws().ownerJwt(),
                Map.of("reason", "x".repeat(2001))).status()).isEqualTo(400);
        assertThat(get(sealed.path("/evidence/export?from=2030-01-01T00:00:00Z"), sealed.ws().ownerJwt()).statusCode()).isEqualTo(400);
        // unknown sizes
        assertThat(client().send("GET", sealed.path("/evidence/checkpoints/999999"), sealed.ws().ownerJwt(), null).status()).isEqualTo(404);
        assertThat(client().send("GET", sealed.path("/audit-log/" + someone + "/inclusion-proof?treeSize=999999"), sealed.ws().ownerJwt(), null)
                .status()).isEqualTo(404);
        assertThat(client().send("GET", "/admin/v1/workspaces/" + other.id() + "/evidence/checkpoints/latest", other.ownerJwt(), null)
                .status()).as("a workspace whose log has no entry, so no checkpoint yet").isEqualTo(404);
        // a member (not admin) reads nothing and erases nothing; nobody unauthenticated does
        String member = GatewayHarness.addMember(sealed.ws(), "member");
        String memberJwt = GatewayHarness.jwt("member-" + sealed.ws().id(), member);
        assertThat(client().send("GET", sealed.path("/evidence/checkpoints/latest"), memberJwt, null).status()).isEqualTo(403);
        assertThat(client().send("POST", sealed.path("/evidence/verify"), memberJwt, Map.of()).status()).isEqualTo(403);
        assertThat(client().send("POST", sealed.path("/audit-log/" + someone + "/erase-payload"), memberJwt, Map.of()).status())
                .isEqualTo(403);
        assertThat(client().send("GET", sealed.path("/evidence/public-keys"), null, null).status()).isEqualTo(401);
    }

    // ---- tampering with PostgreSQL: each caught live and offline, the first bad sequence named ----

    @Test
    void aDecisionChangedInPostgresqlIsCaught() throws Exception {
        Sealed sealed = sealedWorkspace();
        String row = sealed.blocked().get(0);
        assertThat(update("update audit_log set decision = 'allow' where id = ?::uuid", row)).isEqualTo(1);
        assertCaughtAt(sealed, sealed.sequences().get(row));
    }

    @Test
    void aPayloadChangedIsCaught() throws Exception {
        Sealed sealed = sealedWorkspace();
        String row = sealed.blocked().get(1);
        assertThat(update("update audit_log set payload_excerpt = '{\"items\":[1,2,3],\"n\":99,\"note\":\"évidence 1\"}' where id = ?::uuid", row)).isEqualTo(1);
        assertCaughtAt(sealed, sealed.sequences().get(row));
    }

    @Test
    void aDeletedRowIsCaught() throws Exception {
        Sealed sealed = sealedWorkspace();
        String row = sealed.blocked().get(0);
        assertThat(update("delete from audit_log where id = ?::uuid", row)).isEqualTo(1);
        assertCaughtAt(sealed, sealed.sequences().get(row));
    }

    @Test
    void twoSwappedRowsAreCaught() throws Exception {
        Sealed sealed = sealedWorkspace();
        List<String> ids = new ArrayList<>(sealed.sequences().keySet());
        String first = ids.get(1);
        String second = ids.get(4);
        long a = sealed.sequences().get(first);
        long b = sealed.sequences().get(second);
        try (Connection db = db(); PreparedStatement swap = db.prepareStatement(
                "update audit_log set sequence = case when id = ?::uuid then ? else ? end where id in (?::uuid, ?::uuid)")) {
            swap.setString(1, first);
            swap.setLong(2, b);
            swap.setLong(3, a);
            swap.setString(4, first);
            swap.setString(5, second);
            assertThat(swap.executeUpdate()).isEqualTo(2);
        }
        assertCaughtAt(sealed, Math.min(a, b));
    }

    @Test
    void aTruncatedTailIsCaughtAgainstTheCheckpointAndWithItsCheckpointsGoneAgainstOneSeenBefore() throws Exception {
        Sealed sealed = sealedWorkspace();
        String seenBefore = latestNote(sealed);
        // the last three entries and their rows removed (whatever their kind)
        long from = sealed.size() - 3;
        int removed = update("delete from audit_log where workspace_id = ?::uuid and sequence >= " + from, sealed.ws().id())
                + update("delete from evidence_entries where workspace_id = ?::uuid and sequence >= " + from, sealed.ws().id());
        assertThat(removed).isEqualTo(3);
        assertCaughtAt(sealed, from);

        // the checkpoints that covered them removed too: the log looks whole, but not against a checkpoint seen before
        assertThat(update("delete from evidence_checkpoints where workspace_id = ?::uuid and tree_size > " + from, sealed.ws().id()))
                .isPositive();
        JsonNode live = liveCheck(sealed, seenBefore);
        assertThat(live.get("verified").asBoolean()).isFalse();
        assertThat(live.get("report").asString()).contains("shorter than a checkpoint seen before");
        Path previous = files.resolve("seen-before.note");
        Files.writeString(previous, seenBefore);
        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""), "--previous-checkpoint", previous.toString());
        assertThat(offline.exit()).as(offline.out()).isEqualTo(1);
        assertThat(offline.out()).contains("shorter than a checkpoint seen before");
    }

    @Test
    void aRowMovedToAnotherWorkspaceIsCaughtInBoth() throws Exception {
        Sealed sealed = sealedWorkspace();
        Sealed other = sealedWorkspace();
        String row = sealed.blocked().get(0);
        try (Connection db = db(); PreparedStatement move = db.prepareStatement(
                "update audit_log set workspace_id = ?::uuid where id = ?::uuid")) {
            move.setString(1, other.ws().id());
            move.setString(2, row);
            assertThat(move.executeUpdate()).isEqualTo(1);
        }
        assertCaughtAt(sealed, sealed.sequences().get(row));
        // where it landed, it is no entry of that log
        JsonNode there = liveCheck(other, null);
        assertThat(there.get("verified").asBoolean()).isFalse();
        assertThat(there.get("report").asString()).contains(row);
    }

    @Test
    void aCheckpointResignedWithAnotherKeyIsRefused() throws Exception {
        Sealed sealed = sealedWorkspace();
        NoteKeys.SignerKey forger = NoteKeys.generate(gatewayKey().name(), new SecureRandom());
        String note = latestNote(sealed);
        String forged = SignedNote.sign(SignedNote.parse(note).text(), forger).encoded();
        try (Connection db = db(); PreparedStatement resign = db.prepareStatement(
                "update evidence_checkpoints set note = ?, signed_by = ? where workspace_id = ?::uuid and note = ?")) {
            resign.setString(1, forged);
            resign.setString(2, forger.verifier().text());
            resign.setString(3, sealed.ws().id());
            resign.setString(4, note);
            assertThat(resign.executeUpdate()).isEqualTo(1);
        }
        JsonNode live = liveCheck(sealed, null);
        assertThat(live.get("verified").asBoolean()).isFalse();
        assertThat(live.get("signature").asString()).startsWith("NOT TRUSTED: no signature by a trusted key");
        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""));
        assertThat(offline.exit()).isEqualTo(1);
        assertThat(offline.out()).contains("signature: NOT TRUSTED", "result: FAILED");
    }

    @Test
    void aForkedLogIsCaught() throws Exception {
        Sealed sealed = sealedWorkspace();
        Checkpoint real = Checkpoint.parse(SignedNote.parse(latestNote(sealed)).text());
        // the log's own key signing another history of the same size (a log that forked, or a stolen key)
        NoteKeys.SignerKey key = NoteKeys.parseSigner(GatewayHarness.gateway().secrets().evidenceSigningKey());
        Checkpoint other = new Checkpoint(real.origin(), real.size(), new MerkleHasher().leaf("another history".getBytes()));
        String fork = SignedNote.sign(other.body(), key).encoded();
        String forkId = UUID.randomUUID().toString();
        try (Connection db = db(); PreparedStatement insert = db.prepareStatement("""
                insert into evidence_checkpoints (event_id, workspace_id, tree_size, root_hash, note, signed_by, issued_at)
                values (?::uuid, ?::uuid, ?, ?, ?, ?, now())
                """)) {
            insert.setString(1, forkId);
            insert.setString(2, sealed.ws().id());
            insert.setLong(3, other.size());
            insert.setString(4, Hashes.base64(other.rootHash()));
            insert.setString(5, fork);
            insert.setString(6, key.verifier().text());
            insert.executeUpdate();
        }
        JsonNode live = liveCheck(sealed, null);
        assertThat(live.get("verified").asBoolean()).isFalse();
        assertThat(live.get("report").asString()).contains("forked log: two checkpoints of size " + real.size());
        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""));
        assertThat(offline.exit()).isEqualTo(1);
        assertThat(offline.out()).contains("forked log: two checkpoints of size " + real.size());

        // an auditor holding the fork's checkpoint from before sees it against the log's real one
        assertThat(update("delete from evidence_checkpoints where event_id = ?::uuid", forkId)).isEqualTo(1);
        Path seen = files.resolve("fork.note");
        Files.writeString(seen, fork);
        Offline auditor = offline(sealed, exportThroughTheApi(sealed, ""), "--previous-checkpoint", seen.toString());
        assertThat(auditor.exit()).isEqualTo(1);
        assertThat(auditor.out()).contains("previous checkpoint: size " + real.size() + ": FORK");
        JsonNode liveAgainstSeen = liveCheck(sealed, fork);
        assertThat(liveAgainstSeen.get("verified").asBoolean()).isFalse();
        assertThat(liveAgainstSeen.get("consistency").asString()).contains("FORK");
    }

    // ---- a payload erased by the admin action ----

    @Test
    void aPayloadErasedThroughTheAdminActionLeavesTheLogVerifiable() throws Exception {
        Sealed sealed = sealedWorkspace();
        String row = sealed.blocked().get(0);
        var erased = client().send("POST", sealed.path("/audit-log/" + row + "/erase-payload"), sealed.ws().ownerJwt(),
                Map.of("reason", "data subject request DSR-7"));
        assertThat(erased.status()).as(erased.rawBody()).isEqualTo(200);
        assertThat(erased.body().get("erased").asBoolean()).isTrue();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
                count("select count(*) from audit_log where id = ?::uuid and payload_excerpt is null and payload_erased_at is not null", row) == 1
                        && count("select coalesce(max(tree_size), 0) from evidence_checkpoints where workspace_id = ?::uuid", sealed.ws().id())
                        == sealed.size() + 1);
        JsonNode live = liveCheck(sealed, null);
        assertThat(live.get("verified").asBoolean()).as(live.get("report").asString()).isTrue();
        assertThat(live.get("payloadsErased").asLong()).isEqualTo(1);
        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""));
        assertThat(offline.exit()).as(offline.out()).isZero();
        assertThat(offline.out()).contains("1 erased (digest only)");

        // a payload gone without the admin action is not accepted
        String another = sealed.blocked().get(1);
        assertThat(update("update audit_log set payload_excerpt = null, payload_erased_at = now() where id = ?::uuid", another)).isEqualTo(1);
        assertCaughtAt(sealed, sealed.sequences().get(another));
    }

    // ---- helpers ----

    /** Both checks fail and name {@code sequence} as the first bad one. */
    private void assertCaughtAt(Sealed sealed, long sequence) throws Exception {
        JsonNode live = liveCheck(sealed, null);
        assertThat(live.get("verified").asBoolean()).as(live.get("report").asString()).isFalse();
        assertThat(live.get("firstBadSequence").asLong()).as(live.get("report").asString()).isEqualTo(sequence);
        Offline offline = offline(sealed, exportThroughTheApi(sealed, ""));
        assertThat(offline.exit()).as(offline.out()).isEqualTo(1);
        assertThat(offline.out()).contains("first bad sequence: " + sequence + "\n", "result: FAILED");
    }

    private static JsonNode liveCheck(Sealed sealed, String previousCheckpoint) {
        Map<String, Object> body = previousCheckpoint == null ? Map.of() : Map.of("previousCheckpoint", previousCheckpoint);
        var verified = client().send("POST", sealed.path("/evidence/verify"), sealed.ws().ownerJwt(), body);
        assertThat(verified.status()).as(verified.rawBody()).isEqualTo(200);
        return verified.body();
    }

    record Offline(int exit, String out) {}

    private Offline offline(Sealed sealed, Path export, String... more) {
        List<String> args = new ArrayList<>(List.of("--file", export.toString(), "--key", gatewayKey().text()));
        args.addAll(List.of(more));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new AuditVerifyCommand(new ByteArrayInputStream(new byte[0]), print(out), print(err)).execute(args);
        assertThat(text(err)).as("stderr").isEmpty();
        return new Offline(exit, text(out));
    }

    private Path exportThroughTheApi(Sealed sealed, String query) throws Exception {
        HttpResponse<String> response = get(sealed.path("/evidence/export" + query), sealed.ws().ownerJwt());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).contains("application/x-ndjson");
        Path file = files.resolve("export-" + UUID.randomUUID() + ".jsonl");
        Files.writeString(file, response.body());
        return file;
    }

    private Path exportThroughTheCommandLine(Sealed sealed) {
        Path file = files.resolve("cli-" + UUID.randomUUID() + ".jsonl");
        EmbeddedGateway gateway = GatewayHarness.gateway();
        int status = ExportCommand.run(List.of("--evidence", "--workspace", sealed.ws().id(), "--out", file.toString(),
                "--jdbc-url", gateway.jdbcUrl(), "--db-user", gateway.postgresUser(), "--db-password", gateway.postgresPassword()));
        assertThat(status).isZero();
        return file;
    }

    private static List<JsonNode> checkpoints(Sealed sealed) throws SQLException {
        List<JsonNode> found = new ArrayList<>();
        try (Connection db = db(); PreparedStatement query = db.prepareStatement(
                "select distinct tree_size from evidence_checkpoints where workspace_id = ?::uuid order by tree_size")) {
            query.setString(1, sealed.ws().id());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    var page = client().send("GET", sealed.path("/evidence/checkpoints/" + rows.getLong(1)), sealed.ws().ownerJwt(), null);
                    assertThat(page.status()).isEqualTo(200);
                    found.add(page.body().get("items").get(0));
                }
            }
        }
        return found;
    }

    private static String latestNote(Sealed sealed) {
        var latest = client().send("GET", sealed.path("/evidence/checkpoints/latest"), sealed.ws().ownerJwt(), null);
        assertThat(latest.status()).isEqualTo(200);
        return latest.body().get("checkpoint").get("note").asString();
    }

    private static HttpResponse<String> get(String path, String bearer) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(GatewayHarness.gateway().baseUrl() + path))
                .header("Authorization", "Bearer " + bearer).timeout(Duration.ofSeconds(60)).build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Runs a change of the tampering kind; returns the rows it changed. */
    private static int update(String sql, String parameter) throws SQLException {
        try (Connection db = db(); PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setString(1, parameter);
            return statement.executeUpdate();
        }
    }

    private static long count(String sql, String parameter) throws SQLException {
        try (Connection db = db(); PreparedStatement statement = db.prepareStatement(sql)) {
            statement.setString(1, parameter);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static PrintStream print(ByteArrayOutputStream out) {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8);
    }
}
