package io.agentgateway.adminapi.audit;

import io.agentgateway.evidence.Checkpoint;
import io.agentgateway.evidence.EntryEncoding;
import io.agentgateway.evidence.ExportedEntry;
import io.agentgateway.evidence.Hashes;
import io.agentgateway.evidence.MerkleHasher;
import io.agentgateway.evidence.MerkleProofs;
import io.agentgateway.evidence.NoteKeys;
import io.agentgateway.evidence.SignedNote;
import io.agentgateway.evidence.VerificationReport;
import io.agentgateway.adminapi.evidence.EvidenceKeyProperties;
import io.agentgateway.adminapi.evidence.EvidenceLogReader.StoredCheckpoint;
import io.agentgateway.adminapi.evidence.EvidenceLogReader;
import io.agentgateway.adminapi.evidence.LiveVerification;
import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.QueryParams;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonFields;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.httpedge.web.Uuids;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code /admin/v1/workspaces/{workspaceId}/evidence/...} and {@code .../audit-log/{auditLogId}/inclusion-proof}: the
 * workspace's Merkle log for its admins and for auditors they hand it to (docs/evidence.md). Checkpoints (latest, by
 * size), the inclusion proof of an audit entry, the consistency proof between two sizes (and the same as a witness's
 * {@code add-checkpoint} request body), the public keys, and the live check. Every read is scoped to the caller's
 * workspace (another workspace's ids: 404) and needs the admin or owner role, as the audit log does; bad input is a 400.
 */
@Component
public class EvidenceAdminHandler {
    static final String NO_CHECKPOINT = "No checkpoint yet: the log's first is issued after its first entries";

    private final AdminAccess access;
    private final DataSource dataSource;
    private final JsonBodyReader bodies;
    private final List<NoteKeys.VerifierKey> trustedKeys;
    private final String origin;

    EvidenceAdminHandler(AdminAccess access, DataSource dataSource, JsonBodyReader bodies, EvidenceKeyProperties keys) {
        this.access = access;
        this.dataSource = dataSource;
        this.bodies = bodies;
        // read at start: a key that cannot be read stops the ingress instead of failing every check
        this.trustedKeys = keys.trustedKeys();
        this.origin = keys.origin() == null || keys.origin().isBlank()
                ? (trustedKeys.isEmpty() ? "agent-action-gateway.local/audit" : trustedKeys.get(0).name())
                : keys.origin().trim();
    }

    /** A checkpoint as the endpoints show it. */
    record CheckpointView(String origin, long treeSize, String rootHash, String note, String signedBy, Instant issuedAt) {
        static CheckpointView of(StoredCheckpoint checkpoint, String fallbackOrigin) {
            String origin = fallbackOrigin;
            try {
                origin = Checkpoint.parse(SignedNote.parse(checkpoint.note()).text()).origin();
            } catch (IllegalArgumentException unreadable) {
                // shown as stored; the live check reports it
            }
            return new CheckpointView(origin, checkpoint.treeSize(), checkpoint.rootHash(), checkpoint.note(),
                    checkpoint.signedBy(), checkpoint.issuedAt());
        }
    }

    record LatestCheckpoint(boolean ok, CheckpointView checkpoint) {}

    record Checkpoints(boolean ok, List<CheckpointView> items) {}

    record InclusionProof(boolean ok, String auditLogId, long sequence, long treeSize, String rootHash, String leafHash,
                          List<String> proof, String checkpoint, EntryView entry) {}

    record EntryView(String kind, Map<String, String> fields, String encoded) {}

    record ConsistencyProof(boolean ok, long from, long to, String fromRoot, String toRoot, List<String> proof) {}

    record PublicKeys(boolean ok, List<String> keys) {}

    record Verification(boolean ok, boolean verified, Long firstBadSequence, long entriesChecked, long treeSize,
                        String rootHash, String computedRoot, String signature, String consistency, long payloadsChecked,
                        long payloadsErased, long pendingEntries, List<VerificationReport.Failure> failures, String report) {}

    /** GET …/evidence/checkpoints/latest. */
    public Mono<ServerResponse> latestCheckpoint(ServerRequest request) {
        return access.admin(request).flatMap(admin -> read(admin.workspaceId(), log -> log.latestCheckpoint()
                        .orElseThrow(() -> ApiException.notFound(NO_CHECKPOINT))))
                .flatMap(checkpoint -> JsonResponses.ok(new LatestCheckpoint(true, CheckpointView.of(checkpoint, origin))));
    }

    /** GET …/evidence/checkpoints/{treeSize}: usually one; two of one size are a fork. */
    public Mono<ServerResponse> checkpointsOfSize(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            long size = size(request.pathVariable("treeSize"), "treeSize");
            return access.requireAdmin(caller).flatMap(admin -> read(admin.workspaceId(), log -> {
                List<StoredCheckpoint> found = log.checkpointsOfSize(size);
                if (found.isEmpty()) {
                    throw ApiException.notFound("No checkpoint of tree size " + size);
                }
                return found;
            }));
        }).flatMap(found -> JsonResponses.ok(new Checkpoints(true, found.stream().map(c -> CheckpointView.of(c, origin)).toList())));
    }

    /** GET …/audit-log/{auditLogId}/inclusion-proof[?treeSize=N]: against the latest checkpoint unless a size is named. */
    public Mono<ServerResponse> inclusionProof(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            UUID auditLogId = Uuids.require(request.pathVariable("auditLogId"), "auditLogId");
            String sizeParam = QueryParams.param(request, "treeSize");
            Long requested = sizeParam == null ? null : size(sizeParam, "treeSize");
            return access.requireAdmin(caller).flatMap(admin -> read(admin.workspaceId(), log -> {
                Optional<Long> sealed = log.sequenceOfAuditRow(auditLogId);
                if (sealed.isEmpty()) {
                    throw log.holdsAuditRow(auditLogId)
                            ? new ApiException(HttpStatus.CONFLICT, "Audit entry " + auditLogId + " was not sealed into the log"
                                    + " (recorded before it, or while sealing was off)")
                            : ApiException.notFound(AuditLog.ENTRY_NOT_FOUND);
                }
                long sequence = sealed.get();
                StoredCheckpoint checkpoint = checkpointFor(log, requested);
                if (sequence >= checkpoint.treeSize()) {
                    throw new ApiException(HttpStatus.CONFLICT, "Audit entry " + auditLogId + " (sequence " + sequence
                            + ") is not covered by a checkpoint " + (requested == null ? "yet (the latest is of size "
                            + checkpoint.treeSize() + "); retry in a few seconds" : "of size " + checkpoint.treeSize()));
                }
                MerkleHasher hasher = new MerkleHasher();
                List<byte[]> proof = MerkleProofs.inclusionProof(sequence, checkpoint.treeSize(), log.nodes(), hasher);
                ExportedEntry entry = entryAt(log, sequence);
                return new InclusionProof(true, auditLogId.toString(), sequence, checkpoint.treeSize(), checkpoint.rootHash(),
                        entry == null ? null : Hashes.base64(entry.sealedLeafHash()), base64(proof), checkpoint.note(),
                        entry == null ? null : new EntryView(entry.entry().kind(), entry.entry().fields(),
                                Base64.getEncoder().encodeToString(EntryEncoding.encode(entry.entry()))));
            }));
        }).flatMap(JsonResponses::ok);
    }

    /** GET …/evidence/consistency-proof?from=M[&to=N]: from any earlier size to a checkpoint's (the latest by default). */
    public Mono<ServerResponse> consistencyProof(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            long from = requiredSize(request, "from");
            String toParam = QueryParams.param(request, "to");
            Long to = toParam == null ? null : size(toParam, "to");
            if (to != null && from > to) {
                throw ApiException.badRequest("from must not be larger than to");
            }
            return access.requireAdmin(caller).flatMap(admin -> read(admin.workspaceId(), log -> {
                StoredCheckpoint target = checkpointFor(log, to);
                if (from > target.treeSize()) {
                    throw new ApiException(HttpStatus.CONFLICT, "from " + from + " is beyond the checkpoint's tree size "
                            + target.treeSize());
                }
                List<byte[]> proof = MerkleProofs.consistencyProof(from, target.treeSize(), log.nodes(), new MerkleHasher());
                String fromRoot = log.checkpointsOfSize(from).stream().findFirst().map(StoredCheckpoint::rootHash).orElse(null);
                return new ConsistencyProof(true, from, target.treeSize(), fromRoot, target.rootHash(), base64(proof));
            }));
        }).flatMap(JsonResponses::ok);
    }

    /**
     * GET …/evidence/witness/add-checkpoint?old=M: the body of a C2SP tlog-witness {@code add-checkpoint} request for the
     * latest checkpoint, from the size the witness last cosigned ({@code old 0} for a first submission), as text.
     */
    public Mono<ServerResponse> witnessSubmission(ServerRequest request) {
        return access.caller(request).flatMap(caller -> {
            long old = requiredSize(request, "old");
            return access.requireAdmin(caller).flatMap(admin -> read(admin.workspaceId(), log -> {
                StoredCheckpoint latest = checkpointFor(log, null);
                if (old > latest.treeSize()) {
                    throw new ApiException(HttpStatus.CONFLICT, "old " + old + " is beyond the latest checkpoint's tree size "
                            + latest.treeSize());
                }
                StringBuilder body = new StringBuilder("old ").append(old).append('\n');
                for (byte[] hash : MerkleProofs.consistencyProof(old, latest.treeSize(), log.nodes(), new MerkleHasher())) {
                    body.append(Hashes.base64(hash)).append('\n');
                }
                return body.append('\n').append(latest.note()).toString();
            }));
        }).flatMap(body -> ServerResponse.ok().contentType(new MediaType("text", "plain", StandardCharsets.UTF_8))
                .header(HttpHeaders.CACHE_CONTROL, "no-store").bodyValue(body));
    }

    /** GET …/evidence/public-keys: the verifier keys of this gateway's checkpoints, current first. */
    public Mono<ServerResponse> publicKeys(ServerRequest request) {
        return access.admin(request)
                .flatMap(admin -> JsonResponses.ok(new PublicKeys(true, trustedKeys.stream().map(NoteKeys.VerifierKey::text).toList())));
    }

    /**
     * POST …/evidence/verify [{"previousCheckpoint": "<note>"}]: the live check of the rows PostgreSQL holds, against the
     * signed checkpoints and, when given, a checkpoint seen before. 200 whatever it finds ({@code verified} says).
     */
    public Mono<ServerResponse> verify(ServerRequest request) {
        return access.caller(request).flatMap(caller -> bodies.readOptionalObject(request).flatMap(body -> {
            JsonFields.onlyKnownFields(body, Set.of("previousCheckpoint"), "");
            String previous = JsonFields.optionalString(body, "previousCheckpoint");
            if (previous != null) {
                try {
                    Checkpoint.parse(SignedNote.parse(previous).text());
                } catch (IllegalArgumentException e) {
                    throw ApiException.badRequest("previousCheckpoint is not a checkpoint: " + e.getMessage());
                }
            }
            return access.requireAdmin(caller).flatMap(admin -> Blocking.call(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    return LiveVerification.verify(connection, admin.workspaceId(), trustedKeys, previous,
                            origin + "/" + admin.workspaceId());
                }
            }));
        })).flatMap(report -> JsonResponses.ok(new Verification(true, report.ok(),
                report.firstBadSequence().isPresent() ? report.firstBadSequence().getAsLong() : null, report.entriesChecked(),
                report.treeSize(), report.rootHash(), report.computedRoot(), report.signature(), report.consistency(),
                report.payloadsChecked(), report.payloadsErased(), report.pendingEntries(),
                report.failures().size() > 100 ? report.failures().subList(0, 100) : report.failures(), report.render())));
    }

    String origin() {
        return origin;
    }

    List<NoteKeys.VerifierKey> trustedKeys() {
        return trustedKeys;
    }

    private static ExportedEntry entryAt(EvidenceLogReader log, long sequence) throws SQLException {
        ExportedEntry[] found = {null};
        log.scan(sequence, sequence + 1, new EvidenceLogReader.EntryVisitor() {
            @Override
            public void entry(ExportedEntry entry) {
                found[0] = entry;
            }

            @Override
            public void unreadable(long at, String problem) {
                // the proof stands on the stored nodes; the entry is shown when it can be read
            }
        });
        return found[0];
    }

    /** The checkpoint of {@code size}, or the latest when null; 404 when there is none. */
    private static StoredCheckpoint checkpointFor(EvidenceLogReader log, Long size) throws SQLException {
        if (size == null) {
            return log.latestCheckpoint().orElseThrow(() -> ApiException.notFound(NO_CHECKPOINT));
        }
        return log.checkpointsOfSize(size).stream().findFirst()
                .orElseThrow(() -> ApiException.notFound("No checkpoint of tree size " + size));
    }

    @FunctionalInterface
    private interface LogRead<T> {
        T read(EvidenceLogReader log) throws SQLException;
    }

    /** A read of the workspace's log on a pooled connection, off the event loop; a missing node is a log in need of repair. */
    private <T> Mono<T> read(UUID workspaceId, LogRead<T> read) {
        return Blocking.call(() -> {
            try (Connection connection = dataSource.getConnection()) {
                return read.read(new EvidenceLogReader(connection, workspaceId));
            } catch (EvidenceLogReader.EvidenceReadException e) {
                throw e.getCause();
            } catch (MerkleProofs.MissingNodeException e) {
                throw new ApiException(HttpStatus.CONFLICT, "The read model lacks part of the log (" + e.getMessage()
                        + "): the projector is behind, or the tables were changed; run the live check");
            }
        });
    }

    private static long requiredSize(ServerRequest request, String name) {
        String value = QueryParams.param(request, name);
        if (value == null) {
            throw ApiException.badRequest(name + " is required: a tree size (a whole number of at least 0)");
        }
        return size(value, name);
    }

    static long size(String text, String name) {
        try {
            long size = Long.parseLong(text);
            if (size >= 0 && Long.toString(size).equals(text)) {
                return size;
            }
        } catch (NumberFormatException notANumber) {
            // the same answer as a negative one
        }
        throw ApiException.badRequest(name + " must be a tree size: a whole number of at least 0");
    }

    private static List<String> base64(List<byte[]> hashes) {
        List<String> texts = new ArrayList<>(hashes.size());
        hashes.forEach(hash -> texts.add(Hashes.base64(hash)));
        return texts;
    }
}
