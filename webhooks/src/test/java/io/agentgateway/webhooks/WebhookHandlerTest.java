package io.agentgateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.ActionGate;
import io.agentgateway.actiongate.ConnectionAccess;
import io.agentgateway.actiongate.GateDecision;
import io.agentgateway.actiongate.connection.ConnectionSecrets;
import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.classification.ToolProfiles;
import io.agentgateway.httpedge.secret.ConfiguredSecretBox;
import io.agentgateway.httpedge.secret.SecretsProperties;
import io.agentgateway.httpedge.web.EdgeTestServer;
import io.agentgateway.httpedge.web.MethodRoutes;
import io.agentgateway.ingresstestsupport.RunningIngress;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.secret.PlainSecret;
import io.agentgateway.schemas.secret.SecretBox;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;

/**
 * The webhook handler alone, for the code host's deliveries: bound to its route with the edge's correlation ids and
 * error body, its services stubbed at the module's boundary: the read model's index of which workspaces a payload
 * names ({@link WebhookCandidateIndex}), the decision stream's word on the connections ({@link ConnectionAccess}) and
 * the {@link ActionGate} that records each verified delivery. The signatures are real HMACs over the raw bytes under
 * secrets sealed as the stream seals them. End to end: the launcher's {@code WebhooksEndToEndTest}.
 */
class WebhookHandlerTest {
    private static final String PATH = ToolProfiles.of(Tool.CODE_HOST).webhooks().orElseThrow().path();
    private static final String REPO = "acme/api";
    private static final byte[] BODY = """
            {"action":"opened","repository":{"full_name":"acme/api"},"sender":{"login":"octocat"}}"""
            .getBytes(StandardCharsets.UTF_8);

    private final SecretBox box = SecretBox.fromBase64Key(RunningIngress.SECRETS_KEY);
    private final ActionGate gate = mock(ActionGate.class);
    private final ConnectionAccess access = mock(ConnectionAccess.class);
    private final WebhookCandidateIndex index = mock(WebhookCandidateIndex.class);
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final EdgeTestServer server;
    private final WebTestClient client;

    WebhookHandlerTest() {
        WebhookProperties properties = new Binder(new MapConfigurationPropertySource(Map.of()))
                .bindOrCreate("gateway.webhooks", WebhookProperties.class);
        WebhookHandler handler = new WebhookHandler(gate, access, index,
                new WebhookVerifier(new ConnectionSecrets(new ConfiguredSecretBox(new SecretsProperties(RunningIngress.SECRETS_KEY)))),
                new WebhookMetrics(meters), properties, new UnmatchedDeliveries(properties));
        server = EdgeTestServer.serve(MethodRoutes.path(PATH).post(request -> handler.receive(request, Tool.CODE_HOST)).build());
        client = server.client();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @BeforeEach
    void theStreamHasNoNewerWord() {
        when(access.known(any(), any())).thenReturn(Known.NOTHING);
    }

    /** A code host connection of version {@code version} watching {@link #REPO}, with {@code secret}. */
    private ToolConnection watching(String secret, long version) {
        return new ToolConnection(Tool.CODE_HOST, new ToolConnectionConfig(List.of(REPO), null, null, null, null), null,
                box.sealSecret(secret), null, null, null, null, version);
    }

    private WebTestClient.ResponseSpec deliver(String signedWith) {
        String signature = "sha256=" + HexFormat.of().formatHex(HmacSignature.sign(PlainSecret.of(signedWith), BODY));
        return client.post().uri(PATH).contentType(MediaType.APPLICATION_JSON)
                .header(CodeHostFormat.SIGNATURE, signature).header(CodeHostFormat.DELIVERY, UUID.randomUUID().toString())
                .header(CodeHostFormat.EVENT, "pull_request").bodyValue(BODY).exchange();
    }

    private void gateAnswers(GateDecision.Kind kind) {
        when(gate.decide(any())).thenReturn(Mono.just(new GateDecision(kind, null, null)));
    }

    @Test
    void aDeliveryIsRecordedOnceForEachWorkspaceWhoseSecretSignedIt() {
        UUID first = UUID.randomUUID();
        UUID second = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        when(index.codeHost(REPO, null)).thenReturn(List.of(new WebhookCandidate(first, watching("s3cret", 7)),
                new WebhookCandidate(second, watching("s3cret", 3)), new WebhookCandidate(other, watching("theirs", 4))));
        gateAnswers(GateDecision.Kind.DECIDED);

        deliver("s3cret").expectStatus().isOk().expectBody().json("{\"ok\":true,\"duplicate\":false}", true);

        verify(gate, times(2)).decide(any());
        assertThat(counted(WebhookMetrics.ACCEPTED)).isEqualTo(2);
    }

    private double counted(String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    @Test
    void aDeliveryEveryWorkspaceRecordedBeforeIsAnsweredAsADuplicate() {
        when(index.codeHost(REPO, null)).thenReturn(List.of(new WebhookCandidate(UUID.randomUUID(), watching("s3cret", 7))));
        gateAnswers(GateDecision.Kind.DUPLICATE);

        deliver("s3cret").expectStatus().isOk().expectBody().json("{\"ok\":true,\"duplicate\":true}", true);
    }

    @Test
    void aSignatureNoCurrentSecretHoldsIs401OnceTheStreamConfirmedTheSecrets() {
        UUID workspace = UUID.randomUUID();
        ToolConnection stored = watching("s3cret", 7);
        when(index.codeHost(REPO, null)).thenReturn(List.of(new WebhookCandidate(workspace, stored)));
        when(access.authorize(eq(workspace), anyString(), any(Actor.class), isNull(), eq(Tool.CODE_HOST)))
                .thenReturn(Mono.just(new Known(7, stored)));

        deliver("guessed").expectStatus().isUnauthorized().expectBody()
                .jsonPath("$.ok").isEqualTo(false).jsonPath("$.error").isEqualTo(WebhookRejection.INVALID_SIGNATURE);
        verify(gate, never()).decide(any());
        assertThat(meters.find(WebhookMetrics.REJECTED).tag("reason", "invalid_signature").counter().count()).isEqualTo(1);
    }

    @Test
    void aSecretRotatedSinceTheReadModelsRowIsTakenFromTheStream() {
        UUID workspace = UUID.randomUUID();
        when(index.codeHost(REPO, null)).thenReturn(List.of(new WebhookCandidate(workspace, watching("old", 7))));
        when(access.authorize(eq(workspace), anyString(), any(Actor.class), isNull(), eq(Tool.CODE_HOST)))
                .thenReturn(Mono.just(new Known(8, watching("rotated", 8))));
        gateAnswers(GateDecision.Kind.DECIDED);

        deliver("rotated").expectStatus().isOk();
        verify(gate).decide(any());
    }

    /** Recorded under no workspace for the operators, and answered exactly as a bad signature: nothing to probe. */
    @Test
    void aDeliveryNamingNoWatchedRepositoryIsAnsweredAsABadSignature() {
        when(index.codeHost(REPO, null)).thenReturn(List.of());
        gateAnswers(GateDecision.Kind.DECIDED);

        deliver("anything").expectStatus().isUnauthorized().expectBody()
                .jsonPath("$.error").isEqualTo(WebhookRejection.INVALID_SIGNATURE);
        verify(gate).decide(any());
    }

    @Test
    void aMissingSignatureOrAMalformedBodyCostsNoLookup() {
        client.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).header(CodeHostFormat.DELIVERY, "d-1")
                .header(CodeHostFormat.EVENT, "push").bodyValue(BODY).exchange()
                .expectStatus().isUnauthorized();
        String signature = "sha256=" + HexFormat.of().formatHex(HmacSignature.sign(PlainSecret.of("s3cret"),
                "[1]".getBytes(StandardCharsets.UTF_8)));
        client.post().uri(PATH).contentType(MediaType.APPLICATION_JSON).header(CodeHostFormat.SIGNATURE, signature)
                .header(CodeHostFormat.DELIVERY, "d-2").header(CodeHostFormat.EVENT, "push").bodyValue("[1]").exchange()
                .expectStatus().isBadRequest().expectBody().jsonPath("$.error").isEqualTo("Webhook body must be a JSON object");

        verifyNoInteractions(index, gate);
    }
}
