package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.SetMember;
import io.agentgateway.schemas.command.UpsertPolicy;
import io.agentgateway.schemas.Role;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.JsonNode;

/**
 * A workspace under test: a fresh id, an owner, a clock that advances one second per command, and an
 * API key with the evaluate scope. Commands wait for replies on partition {@link #REPLY_PARTITION}.
 */
public final class TestWorkspace {
    public static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    public static final int REPLY_PARTITION = 2;

    public final String id = UUID.randomUUID().toString();
    public final String name = "Workspace " + id.substring(0, 8);
    public final Actor owner = Actor.user("owner-" + id.substring(0, 8), "owner@example.com");
    private final DecisionDriver driver;
    private Instant now = START;
    private String evaluateKeyHash;
    private final java.util.List<CommandEnvelope> sent = new java.util.ArrayList<>();

    private TestWorkspace(DecisionDriver driver) {
        this.driver = driver;
    }

    /** Creates the workspace and issues an evaluate key. */
    public static TestWorkspace create(DecisionDriver driver) {
        TestWorkspace workspace = new TestWorkspace(driver);
        workspace.as(workspace.owner, new CreateWorkspace(workspace.name)).ok();
        workspace.evaluateKeyHash = workspace.issueKey(Set.of(Scope.EVALUATE), null);
        return workspace;
    }

    public CommandEnvelope envelope(Actor actor, Command command) {
        CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), id,
                UUID.randomUUID().toString(), now, REPLY_PARTITION, actor, command);
        now = now.plusSeconds(1);
        sent.add(envelope);
        return envelope;
    }

    /** Every envelope made for this workspace, in order (a replay sends them again). */
    public java.util.List<CommandEnvelope> sent() {
        return java.util.List.copyOf(sent);
    }

    public Emitted as(Actor actor, Command command) {
        return driver.send(envelope(actor, command));
    }

    /** A command from the owner. */
    public Emitted admin(Command command) {
        return as(owner, command);
    }

    /** An evaluation with the workspace's evaluate key. */
    public Emitted evaluate(EvaluateAction action) {
        return as(agent(evaluateKeyHash), action);
    }

    public Emitted evaluate(Tool tool, String action, RiskLevel risk) {
        return evaluate(action(tool, action, risk).build());
    }

    public Actor agent(String keyHash) {
        return Actor.apiKey(keyHash, "agent-7");
    }

    public String evaluateKeyHash() {
        return evaluateKeyHash;
    }

    public String issueKey(Set<Scope> scopes, Instant expiresAt) {
        String hash = sha256("agk_" + UUID.randomUUID());
        admin(new IssueApiKey(UUID.randomUUID().toString(), "key", hash, scopes, expiresAt)).ok();
        return hash;
    }

    /** Adds a member with a role (by the owner) and returns it as an actor. */
    public Actor member(String userId, Role role) {
        String email = userId + "@example.com";
        admin(new SetMember(userId, email, role)).ok();
        return Actor.user(userId, email);
    }

    public String upsertPolicy(String name, int priority, Decision decision, PolicyMatch match) {
        String policyId = UUID.randomUUID().toString();
        upsert(new Policy(policyId, name, priority, true, decision, match, null));
        return policyId;
    }

    public void upsert(Policy policy) {
        admin(new UpsertPolicy(policy)).ok();
    }

    public Instant now() {
        return now;
    }

    public void advance(Duration duration) {
        now = now.plus(duration);
    }

    public static ActionBuilder action(Tool tool, String action, RiskLevel risk) {
        return new ActionBuilder(tool, action, risk);
    }

    public static PolicyMatch matchActions(String... globs) {
        return new PolicyMatch(Set.of(), List.of(globs), Set.of(), List.of(), List.of(), List.of(), Set.of());
    }

    public static PolicyMatch matchTools(Tool... tools) {
        return new PolicyMatch(Set.of(tools), List.of(), Set.of(), List.of(), List.of(), List.of(), Set.of());
    }

    public static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An evaluate-action request with the usual defaults (agent-7, source evaluate, scope evaluate). */
    public static final class ActionBuilder {
        private final Tool tool;
        private final String action;
        private final RiskLevel risk;
        private String agentId = "agent-7";
        private String resourceType;
        private String resourceId;
        private JsonNode payload;
        private ActionSource source = ActionSource.EVALUATE;
        private Scope scope = Scope.EVALUATE;

        private ActionBuilder(Tool tool, String action, RiskLevel risk) {
            this.tool = tool;
            this.action = action;
            this.risk = risk;
        }

        public ActionBuilder agent(String value) {
            agentId = value;
            return this;
        }

        public ActionBuilder resource(String type, String id) {
            resourceType = type;
            resourceId = id;
            return this;
        }

        public ActionBuilder payload(JsonNode value) {
            payload = value;
            return this;
        }

        public ActionBuilder source(ActionSource value) {
            source = value;
            return this;
        }

        public ActionBuilder scope(Scope value) {
            scope = value;
            return this;
        }

        public EvaluateAction build() {
            return new EvaluateAction(tool, action, risk, agentId, "Agent Seven", resourceType, resourceId, payload,
                    "someone@example.com", source, scope, false);
        }
    }

    static void assertDecision(Emitted emitted, Decision decision) {
        assertThat(emitted.evaluation().decision()).isEqualTo(decision);
    }
}
