package io.agentgateway.decisionstream.broker;

import io.agentgateway.decisionstream.topology.TestWorkspace;
import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.kafka.TopicProvisioner;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/** A fresh workspace, its owner, an evaluate key and one action; every command waits on {@code replyPartition}. */
final class BrokerScenario {
    final String workspaceId = UUID.randomUUID().toString();
    final Actor owner = Actor.user("owner-" + workspaceId.substring(0, 8), "owner@example.com");
    final String keyHash = TestWorkspace.sha256("agk_" + UUID.randomUUID());
    final int replyPartition;

    BrokerScenario(int replyPartition) {
        this.replyPartition = replyPartition;
    }

    /** The shared embedded broker, with the gateway's topics (6 command partitions, 4 reply partitions). */
    static String brokerWithGatewayTopics() {
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        TopicProvisioner.ensureTopics(bootstrap, new TopicProvisioner.Layout(6, 4, (short) 1));
        return bootstrap;
    }

    CommandEnvelope createWorkspace() {
        return envelope(owner, new CreateWorkspace("Broker test"));
    }

    CommandEnvelope issueKey() {
        return envelope(owner, new IssueApiKey(UUID.randomUUID().toString(), "it", keyHash, Set.of(Scope.EVALUATE), null));
    }

    /** A code-host merge: high risk whatever the caller says, so require_approval by the built-in defaults. */
    CommandEnvelope evaluate() {
        return envelope(Actor.apiKey(keyHash, "agent-it"), new EvaluateAction(Tool.CODE_HOST, "pull_request.merge",
                RiskLevel.LOW, "agent-it", null, "repo", "acme/api", null, null, ActionSource.EVALUATE, Scope.EVALUATE, false));
    }

    private CommandEnvelope envelope(Actor actor, Command command) {
        return new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(), workspaceId,
                UUID.randomUUID().toString(), Instant.now(), replyPartition, actor, command);
    }
}
