package io.agentgateway.decisionstream.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.decisionstream.runtime.DecisionStreamRunner;
import io.agentgateway.decisionstream.runtime.DecisionStreamsConfig;
import io.agentgateway.decisionstream.runtime.ProcessingGuarantee;
import io.agentgateway.decisionstream.runtime.StreamsOptions;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.Reply;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * In-process replies on the real (embedded) broker (issue 19): a decision made alone is answered once the broker
 * acknowledged what it wrote, without waiting out the stream producer's linger. The linger and the commit
 * interval here are 20 and 60 seconds, so a reply that waited for either (the linger, or the flush of a commit)
 * would miss the 10 seconds this test gives it.
 */
class InProcessRepliesBrokerTest {
    private static final int LINGER_MS = 20_000;
    private static final int REPLY_PARTITION = 2;
    private static String bootstrap;

    @TempDir
    Path stateDir;

    @BeforeAll
    static void topics() {
        bootstrap = BrokerScenario.brokerWithGatewayTopics();
    }

    @Test
    void a_decision_made_alone_is_answered_without_waiting_out_the_linger() throws Exception {
        StreamsOptions options = new StreamsOptions("decision-local-it-" + UUID.randomUUID(), ProcessingGuarantee.AT_LEAST_ONCE,
                60_000L, null, stateDir.toString(), 1, (short) 1, LINGER_MS, 5, 500);
        LocalReplyChannel channel = new LocalReplyChannel();
        WaitingCallers callers = new WaitingCallers();
        channel.attach(REPLY_PARTITION, callers);
        try (DecisionStreamRunner runner = new DecisionStreamRunner(DecisionSettings.defaults(),
                DecisionStreamsConfig.build(Map.of(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), options), channel);
                CommandClient client = new CommandClient(bootstrap, REPLY_PARTITION)) {
            runner.start();
            runner.awaitRunning(Duration.ofSeconds(60));

            BrokerScenario scenario = new BrokerScenario(REPLY_PARTITION);
            assertThat(callers.request(client, scenario.createWorkspace()).status()).isEqualTo(ReplyStatus.OK);
            assertThat(callers.request(client, scenario.issueKey()).status()).isEqualTo(ReplyStatus.OK);
            for (int i = 0; i < 3; i++) {
                Reply reply = callers.request(client, scenario.evaluate());
                assertThat(reply.evaluation().decision()).isEqualTo(Decision.REQUIRE_APPROVAL);
            }
            assertThat(channel.deliveredCount()).isEqualTo(5);
        }
    }

    /** An ingress's callers, reduced to a test: each waits for its command's reply in this process. */
    private static final class WaitingCallers implements LocalReplyChannel.Receiver {
        private final Map<String, CompletableFuture<Reply>> waiting = new ConcurrentHashMap<>();

        Reply request(CommandClient client, CommandEnvelope envelope) throws Exception {
            CompletableFuture<Reply> reply = new CompletableFuture<>();
            waiting.put(envelope.commandId(), reply);
            client.send(envelope);
            // well within the linger: only a send made as soon as the stream had nothing else to do arrives in time
            return reply.get(10, TimeUnit.SECONDS);
        }

        @Override
        public boolean isWaiting(String commandId) {
            return waiting.containsKey(commandId);
        }

        @Override
        public void deliver(Reply reply) {
            waiting.get(reply.commandId()).complete(reply);
        }
    }
}
