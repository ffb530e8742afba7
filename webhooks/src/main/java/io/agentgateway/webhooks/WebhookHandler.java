package io.agentgateway.webhooks;

import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ActionIntent;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.httpedge.web.Blocking;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.IngressJson;
import io.agentgateway.httpedge.web.JsonResponses;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.ReceiveWebhook;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * POST /functions/v1/webhook-code-host and /functions/v1/webhook-issue-tracker (spec 4.6, 5, 6): the path of each
 * tool whose profile sends webhooks, read in that tool's {@link WebhookFormat} ({@link WebhookFormats}).
 * Order: body size and type (413, 415), signature and delivery headers (401, 400), JSON object (400),
 * the connections the payload names (the read model's index, each connection taken as the newer of its
 * row and the decision stream's last word), the HMAC of the raw bytes against each one's secret (401
 * when none holds, once the stream confirmed the secrets are current), the issue tracker's timestamp
 * (401), then one {@link ReceiveWebhook} per verified workspace through the log, naming the version of
 * the connection it was verified with: the stream records it only if that is the current connection
 * and it still watches the payload's repository or team (a stale answer: verified again with the
 * current one). Each rejection only increments {@code gateway.webhooks.rejected}.
 *
 * <p>A delivery that names no watched repository or organization is recorded under
 * {@link ReceiveWebhook#NO_WORKSPACE} (spec 6 rule 3) and answered exactly like a bad signature:
 * a sender without the secret cannot tell a watched repository from an unwatched one. It is kept as an
 * excerpt, within a rate per source address and a global one ({@link UnmatchedDeliveries}). Every delivery
 * carries the digest of its raw body: the stream treats a body it recorded before as a duplicate whatever
 * its delivery id.
 */
@Component
public class WebhookHandler {
    private static final Logger log = LoggerFactory.getLogger(WebhookHandler.class);

    /** {@code {ok:true, duplicate}}: duplicate when every workspace had recorded this delivery before. */
    public record Accepted(boolean ok, boolean duplicate) {}

    private final ActionGate gate;
    private final ConnectionAccess access;
    private final WebhookCandidateIndex queries;
    private final WebhookVerifier verifier;
    private final WebhookMetrics metrics;
    private final UnmatchedDeliveries unmatched;
    private final RawBodyReader bodies;
    private final WebhookFormats formats;
    private final Clock clock;

    WebhookHandler(ActionGate gate, ConnectionAccess access, WebhookCandidateIndex queries, WebhookVerifier verifier,
                   WebhookMetrics metrics, WebhookProperties properties, UnmatchedDeliveries unmatched) {
        this.gate = gate;
        this.access = access;
        this.queries = queries;
        this.verifier = verifier;
        this.metrics = metrics;
        this.unmatched = unmatched;
        this.bodies = new RawBodyReader(properties.maxBodyBytes());
        this.formats = new WebhookFormats(properties);
        this.clock = Clock.systemUTC();
    }

    /** A delivery of a tool that sends webhooks, at its profile's path ({@code ToolProfile.Webhooks#path}). */
    public Mono<ServerResponse> receive(ServerRequest request, Tool tool) {
        return receive(request, formats.of(tool));
    }

    /** One delivery as it is being verified. */
    private record Delivery(WebhookFormat format, ObjectNode payload, byte[] body, byte[] signature, ReceiveWebhook command,
                            String correlationId) {
        Tool tool() {
            return format.tool();
        }
    }

    private Mono<ServerResponse> receive(ServerRequest request, WebhookFormat format) {
        String correlationId = CorrelationIds.of(request);
        HttpHeaders headers = request.headers().asHttpHeaders();
        return bodies.read(request)
                .flatMap(body -> {
                    byte[] signature = format.signature(headers);
                    String deliveryId = format.deliveryId(headers);
                    ObjectNode payload = parse(body);
                    // built (and its headers checked) before the lookup: a bad request costs no query
                    // the digest of the signed bytes: a second dedupe key beside the delivery id
                    Delivery delivery = new Delivery(format, payload, body, signature,
                            format.command(headers, deliveryId, payload).withBodyDigest(digest(body)), correlationId);
                    return Blocking.call(() -> candidates(delivery))
                            .flatMap(candidates -> candidates.isEmpty()
                                    ? recordUnmatched(delivery, sourceAddress(request))
                                    : verified(delivery, candidates).flatMap(verified -> deliver(delivery, verified)));
                })
                .doOnError(WebhookRejection.class, rejection -> metrics.rejected(format.tool(), rejection.reason()))
                .flatMap(JsonResponses::ok);
    }

    /**
     * The workspaces whose connection names the payload (the read model's cross-workspace index, an answer
     * kept for at most the index TTL: {@link WebhookCandidateIndex}), each
     * with the newer of the read model's row and the decision stream's last answer (the connection view);
     * workspaces the stream says no longer have the connection are left out. Blocking (one query).
     */
    private List<WebhookCandidate> candidates(Delivery delivery) {
        List<WebhookCandidate> candidates = new ArrayList<>();
        for (WebhookCandidate row : delivery.format().candidates(queries, delivery.payload())) {
            Known known = access.known(row.workspaceId(), delivery.tool());
            ToolConnection newer = known.observedAt() >= ToolConnection.versionOf(row.connection()) ? known.connection() : row.connection();
            if (newer != null) {
                candidates.add(new WebhookCandidate(row.workspaceId(), newer));
            }
        }
        return candidates;
    }

    /**
     * The candidates whose copy verifies the signature. When none does, each copy is confirmed with the
     * decision stream first ({@code check_access}: a secret changed since, even one the read model does not
     * show yet, is adopted and tried): a delivery is refused on the current secrets only.
     *
     * @throws WebhookRejection (as the error signal) when none verifies with the current connections
     */
    private Mono<List<WebhookCandidate>> verified(Delivery delivery, List<WebhookCandidate> candidates) {
        List<WebhookCandidate> verified = candidates.stream().filter(candidate -> verifies(delivery, candidate)).toList();
        if (!verified.isEmpty()) {
            return Mono.just(verified);
        }
        return Flux.fromIterable(candidates)
                .concatMap(candidate -> access.authorize(candidate.workspaceId(), delivery.correlationId(),
                                Actor.system(ActionIntent.WEBHOOK_VERIFIER),
                                null, delivery.tool())
                        .filter(current -> ToolConnection.versionOf(current.connection()) != ToolConnection.versionOf(candidate.connection()))
                        .map(current -> new WebhookCandidate(candidate.workspaceId(), current.connection()))
                        .filter(current -> verifies(delivery, current)))
                .collectList()
                .flatMap(confirmed -> confirmed.isEmpty() ? Mono.error(WebhookRejection.invalidSignature()) : Mono.just(confirmed));
    }

    private boolean verifies(Delivery delivery, WebhookCandidate candidate) {
        return verifier.verifies(candidate.workspaceId(), delivery.tool(), candidate.connection(), delivery.payload(),
                delivery.body(), delivery.signature());
    }

    /**
     * One {@code ReceiveWebhook} per verified workspace, naming the version of the connection it verified
     * with. A stale answer carries the current connection: verified again with it, and sent again if it
     * still verifies (else that workspace drops out). None left → refused as a bad signature.
     */
    private Mono<Accepted> deliver(Delivery delivery, List<WebhookCandidate> verified) {
        delivery.format().checkFreshness(delivery.payload(), clock.instant());
        return Flux.fromIterable(verified)
                .flatMap(candidate -> gate.decide(ActionIntent.verifiedWebhook(candidate.workspaceId().toString(), delivery.correlationId())
                        .onConnection(delivery.tool(), new Known(ToolConnection.versionOf(candidate.connection()), candidate.connection()))
                        .receive(connection -> verifies(delivery, new WebhookCandidate(candidate.workspaceId(), connection.connection()))
                                ? Optional.of(delivery.command())
                                : Optional.empty())
                        .build()))
                .filter(decided -> !decided.withdrawn())
                .map(decided -> duplicate(decided, delivery.format()))
                .collectList()
                .flatMap(duplicates -> duplicates.isEmpty()
                        ? Mono.error(WebhookRejection.invalidSignature())
                        : Mono.just(new Accepted(true, duplicates.stream().allMatch(Boolean::booleanValue))));
    }

    /**
     * Recorded for the operators (spec 6 rule 3), then refused as a bad signature would be. A failure to
     * record changes nothing in the answer either.
     */
    private Mono<Accepted> recordUnmatched(Delivery delivery, String sourceAddress) {
        WebhookFormat format = delivery.format();
        String correlationId = delivery.correlationId();
        format.checkFreshness(delivery.payload(), clock.instant());
        Optional<ReceiveWebhook> kept = unmatched.toRecord(delivery.command(), sourceAddress);
        if (kept.isEmpty()) {
            metrics.unmatchedNotRecorded(format.tool());
            return Mono.error(WebhookRejection.unmatched());
        }
        return gate.decide(ActionIntent.verifiedWebhook(ReceiveWebhook.NO_WORKSPACE, correlationId).receive(kept.get()).build())
                .onErrorResume(failure -> {
                    log.warn("[{}] unmatched {} delivery not recorded: {}", correlationId, format.tool().wire(),
                            failure.getMessage());
                    return Mono.empty();
                })
                .then(Mono.error(WebhookRejection.unmatched()));
    }

    private boolean duplicate(GateDecision decided, WebhookFormat format) {
        metrics.accepted(format.tool(), decided.duplicate());
        return decided.duplicate();
    }

    /** {@code sha256:<hex>} of the raw body as signed. */
    static String digest(byte[] body) {
        try {
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String sourceAddress(ServerRequest request) {
        return request.remoteAddress()
                .map(address -> address.getAddress() == null ? address.getHostString() : address.getAddress().getHostAddress())
                .orElse("unknown");
    }

    private static ObjectNode parse(byte[] body) {
        JsonNode node;
        try {
            node = IngressJson.REQUESTS.readTree(body);
        } catch (JacksonException e) {
            throw WebhookRejection.malformedBody();
        }
        if (node instanceof ObjectNode object) {
            return object;
        }
        throw WebhookRejection.malformedBody();
    }
}
