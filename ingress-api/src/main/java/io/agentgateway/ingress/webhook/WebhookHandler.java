package io.agentgateway.ingress.webhook;

import io.agentgateway.ingress.gateway.CommandGateway;
import io.agentgateway.ingress.web.Blocking;
import io.agentgateway.ingress.web.CorrelationIds;
import io.agentgateway.ingress.web.ErrorMessages;
import io.agentgateway.ingress.web.IngressJson;
import io.agentgateway.ingress.web.JsonResponses;
import io.agentgateway.ingress.web.ReplyErrors;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.Reply;
import java.time.Clock;
import java.util.List;
import java.util.UUID;
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
 * POST /functions/v1/webhook-code-host and /functions/v1/webhook-issue-tracker (spec 4.6, 5, 6).
 * Order: body size and type (413, 415), signature and delivery headers (401, 400), JSON object (400),
 * the connections the payload names, the HMAC of the raw bytes against each one's secret (401 when
 * none holds), the issue tracker's timestamp (401), then one {@link ReceiveWebhook} per verified
 * workspace through the log. Each rejection only increments {@code gateway.webhooks.rejected}.
 *
 * <p>A delivery that names no watched repository or organization is recorded under
 * {@link ReceiveWebhook#NO_WORKSPACE} (spec 6 rule 3) and answered exactly like a bad signature:
 * a sender without the secret cannot tell a watched repository from an unwatched one.
 */
@Component
public class WebhookHandler {
    private static final Logger log = LoggerFactory.getLogger(WebhookHandler.class);
    static final String VERIFIER = "webhook-verifier";

    /** {@code {ok:true, duplicate}}: duplicate when every workspace had recorded this delivery before. */
    public record Accepted(boolean ok, boolean duplicate) {}

    private final CommandGateway gateway;
    private final WebhookCandidates connections;
    private final WebhookVerifier verifier;
    private final WebhookMetrics metrics;
    private final RawBodyReader bodies;
    private final WebhookFormat codeHost = new CodeHostFormat();
    private final WebhookFormat issueTracker;
    private final Clock clock;

    WebhookHandler(CommandGateway gateway, WebhookCandidates connections, WebhookVerifier verifier,
                   WebhookMetrics metrics, WebhookProperties properties) {
        this.gateway = gateway;
        this.connections = connections;
        this.verifier = verifier;
        this.metrics = metrics;
        this.bodies = new RawBodyReader(properties.maxBodyBytes());
        this.issueTracker = new IssueTrackerFormat(properties.maxAge(), properties.maxFutureSkew());
        this.clock = Clock.systemUTC();
    }

    public Mono<ServerResponse> codeHost(ServerRequest request) {
        return receive(request, codeHost);
    }

    public Mono<ServerResponse> issueTracker(ServerRequest request) {
        return receive(request, issueTracker);
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
                    ReceiveWebhook command = format.command(headers, deliveryId, payload);
                    return Blocking.call(() -> verifiedWorkspaces(format, payload, body, signature))
                            .flatMap(verified -> verified.isEmpty()
                                    ? recordUnmatched(format, payload, command, correlationId)
                                    : deliver(format, payload, command, verified, correlationId));
                })
                .doOnError(WebhookRejection.class, rejection -> metrics.rejected(format.tool(), rejection.reason()))
                .flatMap(JsonResponses::ok);
    }

    /**
     * The workspaces whose secret verifies the signature; empty when no connection names the payload.
     * @throws WebhookRejection when some do but none of their secrets verifies it
     */
    private List<UUID> verifiedWorkspaces(WebhookFormat format, ObjectNode payload, byte[] body, byte[] signature) {
        List<WebhookCandidate> candidates = format.candidates(connections, payload);
        if (candidates.isEmpty()) {
            return List.of();
        }
        List<UUID> verified = verifier.verifiedWorkspaces(candidates, body, signature);
        if (verified.isEmpty()) {
            throw WebhookRejection.invalidSignature();
        }
        return verified;
    }

    private Mono<Accepted> deliver(WebhookFormat format, ObjectNode payload, ReceiveWebhook command, List<UUID> workspaces,
                                   String correlationId) {
        format.checkFreshness(payload, clock.instant());
        return Flux.fromIterable(workspaces)
                .flatMap(workspace -> gateway.send(workspace.toString(), correlationId, Actor.system(VERIFIER), command))
                .map(reply -> duplicate(reply, format))
                .reduce(true, (allDuplicates, duplicate) -> allDuplicates && duplicate)
                .map(allDuplicates -> new Accepted(true, allDuplicates));
    }

    /**
     * Recorded for the operators (spec 6 rule 3), then refused as a bad signature would be. A failure to
     * record changes nothing in the answer either.
     */
    private Mono<Accepted> recordUnmatched(WebhookFormat format, ObjectNode payload, ReceiveWebhook command,
                                           String correlationId) {
        format.checkFreshness(payload, clock.instant());
        return gateway.send(ReceiveWebhook.NO_WORKSPACE, correlationId, Actor.system(VERIFIER), command)
                .doOnNext(reply -> {
                    if (reply.status() != ReplyStatus.OK && reply.status() != ReplyStatus.CONFLICT) {
                        log.warn("[{}] unmatched {} delivery not recorded: {}", correlationId, format.tool().wire(),
                                reply.error());
                    }
                })
                .onErrorResume(failure -> {
                    log.warn("[{}] unmatched {} delivery not recorded: {}", correlationId, format.tool().wire(),
                            failure.toString());
                    return Mono.empty();
                })
                .then(Mono.error(WebhookRejection.unmatched()));
    }

    private boolean duplicate(Reply reply, WebhookFormat format) {
        boolean duplicate = reply.status() == ReplyStatus.CONFLICT;
        if (!duplicate) {
            ReplyErrors.requireOk(reply, ErrorMessages.INTERNAL);
        }
        metrics.accepted(format.tool(), duplicate);
        return duplicate;
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
