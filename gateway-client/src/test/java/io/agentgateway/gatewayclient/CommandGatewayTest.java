package io.agentgateway.gatewayclient;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.embeddedinfra.SharedTestInfra;
import io.agentgateway.gatewayclient.config.IngressProperties;
import io.agentgateway.gatewayconfig.TopicLayoutProperties;
import io.agentgateway.ingresstestsupport.DecisionResponder;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.CreateWorkspace;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.agentgateway.schemas.command.Reply;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import reactor.util.context.Context;

/** The gateway on its own, against the real broker, with the test responder as the decision side. */
class CommandGatewayTest {
    private static final SimpleMeterRegistry METERS = new SimpleMeterRegistry();
    private static DecisionResponder responder;
    private static CommandGateway gateway;

    @BeforeAll
    static void start() throws InterruptedException {
        String bootstrap = SharedTestInfra.kafka().bootstrapServers();
        gateway = gateway(kafka(bootstrap), 1, Duration.ofSeconds(1));
        gateway.start();
        assertThat(gateway.awaitReady(Duration.ofSeconds(60))).as(gateway.state()).isTrue();
        responder = new DecisionResponder(bootstrap);
    }

    @AfterAll
    static void stop() {
        gateway.stop();
        responder.close();
    }

    private static CommandGateway gateway(KafkaProperties kafka, int replyPartition, Duration replyTimeout) {
        return gateway(kafka, replyPartition, replyTimeout, null);
    }

    private static CommandGateway gateway(KafkaProperties kafka, int replyPartition, Duration replyTimeout, Path journalDir) {
        return CommandGatewayConfiguration.create(kafka,
                new IngressProperties(replyPartition, replyTimeout, 1024, java.time.Duration.ofSeconds(10), journalDir),
                new TopicLayoutProperties(6, 4, (short) 1, 0), null, METERS);
    }

    private static EvaluateAction merge() {
        return new EvaluateAction(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, "agent-1", null, null,
                null, null, null, ActionSource.EVALUATE, Scope.EVALUATE, false);
    }

    private static KafkaProperties kafka(String bootstrap) {
        KafkaProperties kafka = new KafkaProperties();
        kafka.setBootstrapServers(List.of(bootstrap));
        return kafka;
    }

    @Test
    void aReplyCompletesTheWaitingCommandAndLeavesNothingPending() {
        String workspace = UUID.randomUUID().toString();
        responder.answer(workspace, envelope -> DecisionResponder.status(envelope, ReplyStatus.CONFLICT, "exists"));

        Reply reply = gateway.send(workspace, "corr-1", Actor.user("u", null), new CreateWorkspace("w")).block(Duration.ofSeconds(10));

        assertThat(reply.status()).isEqualTo(ReplyStatus.CONFLICT);
        assertThat(reply.error()).isEqualTo("exists");
        assertThat(responder.received(workspace).get(0).replyPartition()).isEqualTo(1);
        assertThat(responder.received(workspace).get(0).workspaceId()).isEqualTo(workspace);
        assertThat(gateway.pendingCount()).isZero();
    }

    @Test
    void manyConcurrentCommandsEachGetTheirOwnReply() {
        String workspace = UUID.randomUUID().toString();
        responder.answer(workspace, envelope -> DecisionResponder.status(envelope, ReplyStatus.INVALID,
                ((CreateWorkspace) envelope.command()).name()));

        List<String> answers = reactor.core.publisher.Flux.range(0, 50)
                .flatMap(i -> gateway.send(workspace, "c", Actor.user("u", null), new CreateWorkspace("n" + i)).map(Reply::error))
                .collectList().block(Duration.ofSeconds(30));

        assertThat(answers).hasSize(50).doesNotHaveDuplicates();
        assertThat(gateway.pendingCount()).isZero();
    }

    @Test
    void noReplyInTimeIsATimeoutNeverAnAnswer() {
        String silent = UUID.randomUUID().toString();

        assertThatThrownBy(() -> gateway.send(silent, "c", Actor.user("u", null), new CreateWorkspace("w")).block(Duration.ofSeconds(10)))
                .isInstanceOf(DecisionTimeoutException.class);
        assertThat(gateway.pendingCount()).isZero();
        assertThat(responder.received(silent)).hasSize(1);
    }

    @Test
    void anEvaluationAnswered504IsReportedToTheDecisionStreamBehindTheCallersBack() {
        String silent = UUID.randomUUID().toString();
        EvaluateAction merge = new EvaluateAction(Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, "agent-1", null, null,
                null, null, null, ActionSource.EVALUATE, Scope.EVALUATE, false);
        String commandId = UUID.randomUUID().toString();

        assertThatThrownBy(() -> gateway.send(commandId, silent, "corr-9", Actor.apiKey("ab".repeat(32), "agent-1"), merge)
                .block(Duration.ofSeconds(10)))
                .isInstanceOf(DecisionTimeoutException.class);

        // on the evaluation's partition (same key), after it: the command id and acceptedAt of the attempt given up on
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(silent).size() == 2);
        CommandEnvelope evaluation = responder.received(silent).get(0);
        CommandEnvelope report = responder.received(silent).get(1);
        assertThat(report.command()).isEqualTo(new RecordCallerGaveUp(commandId, evaluation.acceptedAt(), 504));
        assertThat(report.commandId()).isEqualTo(DerivedIds.callerGaveUpId(commandId, evaluation.acceptedAt()));
        assertThat(report.actor()).isEqualTo(Actor.system("ingress"));
        assertThat(report.replyPartition()).as("nobody waits for it").isNull();
        assertThat(report.deadline()).isNull();
        assertThat(report.correlationId()).isEqualTo("corr-9");
        assertThat(METERS.counter(CallerGaveUpReports.METER, "outcome", "published").count()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void aCallerThatHangsUpBeforeItsReplyIsReportedAsClientClosedRequest() {
        String silent = UUID.randomUUID().toString();
        String commandId = UUID.randomUUID().toString();

        reactor.core.Disposable waiting = gateway.send(commandId, silent, "corr-h", Actor.apiKey("ab".repeat(32), "agent-1"), merge())
                .subscribe(reply -> {}, error -> {});
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(silent).size() == 1);
        waiting.dispose();

        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(silent).size() == 2);
        CommandEnvelope evaluation = responder.received(silent).get(0);
        assertThat(responder.received(silent).get(1).command())
                .isEqualTo(new RecordCallerGaveUp(commandId, evaluation.acceptedAt(), RecordCallerGaveUp.CLIENT_CLOSED_REQUEST));
        assertThat(gateway.pendingCount()).isZero();
    }

    @Test
    void aStartThatFailsAfterOpeningTheJournalLetsGoOfIt(@TempDir Path journalDir) {
        KafkaProperties unusable = new KafkaProperties();
        unusable.setBootstrapServers(List.of("not an address"));
        assertThatThrownBy(() -> gateway(unusable, 3, Duration.ofSeconds(1), journalDir)).isInstanceOf(RuntimeException.class);

        // the next try in this JVM gets the file, not "in use by another ingress process"
        InFlightJournal.open(journalDir, 3).close();
    }

    @Test
    void evaluationsAProcessNeverAnsweredAreReportedByItsNextStartAndAnsweredOnesAreNot(@TempDir Path journalDir)
            throws InterruptedException {
        KafkaProperties kafka = kafka(SharedTestInfra.kafka().bootstrapServers());
        String silent = UUID.randomUUID().toString();
        String answered = UUID.randomUUID().toString();
        responder.answer(answered, envelope -> DecisionResponder.status(envelope, ReplyStatus.OK, null));
        String unanswered = UUID.randomUUID().toString();
        CommandGateway first = gateway(kafka, 2, Duration.ofSeconds(30), journalDir);
        first.start();
        assertThat(first.awaitReady(Duration.ofSeconds(60))).as(first.state()).isTrue();
        Actor agent = Actor.apiKey("ab".repeat(32), "agent-1");
        assertThat(first.send(UUID.randomUUID().toString(), answered, "corr-a", agent, merge()).block(Duration.ofSeconds(10))
                .status()).isEqualTo(ReplyStatus.OK);
        first.send(unanswered, silent, "corr-u", agent, merge()).subscribe(reply -> {}, error -> {});
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(silent).size() == 1);
        // stopped with the evaluation still waiting (as a crash would leave it; the kill -9 itself: IngressCrashEndToEndTest)
        first.stop();

        CommandGateway next = gateway(kafka, 2, Duration.ofSeconds(30), journalDir);
        next.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(silent).size() == 2);
            CommandEnvelope evaluation = responder.received(silent).get(0);
            CommandEnvelope report = responder.received(silent).get(1);
            assertThat(report.command()).isEqualTo(new RecordCallerGaveUp(unanswered, evaluation.acceptedAt(),
                    RecordCallerGaveUp.NOT_ANSWERED));
            assertThat(report.commandId()).isEqualTo(DerivedIds.callerGaveUpId(unanswered, evaluation.acceptedAt()));
            assertThat(report.correlationId()).isEqualTo("corr-u");
            assertThat(responder.received(answered)).as("the answered one is not reported").hasSize(1);
        } finally {
            next.stop();
        }
    }

    /**
     * An exchange that writes the decision as its answer (evaluate-action) keeps the evaluation journaled until the
     * answer was written: a process killed while it was still being mapped, encoded or written has its next start
     * report it; one whose answer was lost (the caller hung up mid-write) is reported at once (499); one written is
     * never reported.
     */
    @Test
    void anAnswerNotWrittenYetKeepsItsEvaluationJournaledAndALostOneIsReportedAtOnce(@TempDir Path journalDir)
            throws InterruptedException {
        KafkaProperties kafka = kafka(SharedTestInfra.kafka().bootstrapServers());
        String writtenWorkspace = UUID.randomUUID().toString();
        String pendingWorkspace = UUID.randomUUID().toString();
        String lostWorkspace = UUID.randomUUID().toString();
        for (String workspace : List.of(writtenWorkspace, pendingWorkspace, lostWorkspace)) {
            responder.answer(workspace, envelope -> DecisionResponder.status(envelope, ReplyStatus.OK, null));
        }
        CommandGateway first = gateway(kafka, 2, Duration.ofSeconds(30), journalDir);
        first.start();
        assertThat(first.awaitReady(Duration.ofSeconds(60))).as(first.state()).isTrue();
        Actor agent = Actor.apiKey("ab".repeat(32), "agent-1");
        AnswerWrites written = new AnswerWrites();
        AnswerWrites pending = new AnswerWrites();
        AnswerWrites lost = new AnswerWrites();
        String pendingCommand = UUID.randomUUID().toString();
        String lostCommand = UUID.randomUUID().toString();
        assertThat(first.send(UUID.randomUUID().toString(), writtenWorkspace, "corr-w", agent, merge())
                .contextWrite(Context.of(AnswerWrites.CONTEXT_KEY, written)).block(Duration.ofSeconds(10)).status())
                .isEqualTo(ReplyStatus.OK);
        written.written();
        assertThat(first.send(pendingCommand, pendingWorkspace, "corr-p", agent, merge())
                .contextWrite(Context.of(AnswerWrites.CONTEXT_KEY, pending)).block(Duration.ofSeconds(10)).status())
                .isEqualTo(ReplyStatus.OK);
        assertThat(first.send(lostCommand, lostWorkspace, "corr-l", agent, merge())
                .contextWrite(Context.of(AnswerWrites.CONTEXT_KEY, lost)).block(Duration.ofSeconds(10)).status())
                .isEqualTo(ReplyStatus.OK);
        lost.lost();
        Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(lostWorkspace).size() == 2);
        CommandEnvelope lostEvaluation = responder.received(lostWorkspace).get(0);
        assertThat(responder.received(lostWorkspace).get(1).command()).isEqualTo(new RecordCallerGaveUp(lostCommand,
                lostEvaluation.acceptedAt(), RecordCallerGaveUp.CLIENT_CLOSED_REQUEST));
        // stopped while the pending answer was still being written (as a kill -9 would leave it)
        first.stop();

        CommandGateway next = gateway(kafka, 2, Duration.ofSeconds(30), journalDir);
        next.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(15)).until(() -> responder.received(pendingWorkspace).size() == 2);
            CommandEnvelope evaluation = responder.received(pendingWorkspace).get(0);
            assertThat(responder.received(pendingWorkspace).get(1).command()).isEqualTo(new RecordCallerGaveUp(pendingCommand,
                    evaluation.acceptedAt(), RecordCallerGaveUp.NOT_ANSWERED));
            assertThat(responder.received(writtenWorkspace)).as("the written answer is not reported").hasSize(1);
            assertThat(responder.received(lostWorkspace)).as("the lost one is not reported twice").hasSize(2);
        } finally {
            next.stop();
        }
    }

    @Test
    void theHealthIndicatorIsUpWhenReady() {
        assertThat(new CommandGatewayHealthIndicator(gateway).health().getStatus()).isEqualTo(Status.UP);
    }

    @Test
    void aProducerThatCannotReachTheBrokerKeepsTheGatewayNotReadyAndSendsFailAtOnce() throws Exception {
        KafkaProperties kafka = kafka(SharedTestInfra.kafka().bootstrapServers());
        kafka.getProducer().setBootstrapServers(List.of("127.0.0.1:" + closedPort()));
        kafka.getProducer().getProperties().put("max.block.ms", "200");
        CommandGateway cut = gateway(kafka, 0, Duration.ofSeconds(5));
        cut.start();
        try {
            assertThat(cut.awaitReady(Duration.ofSeconds(2))).isFalse();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> cut.state().startsWith("waiting for the broker"));

            assertThatThrownBy(() -> cut.send(UUID.randomUUID().toString(), "c", Actor.user("u", null), new CreateWorkspace("w"))
                    .block(Duration.ofSeconds(5)))
                    .isInstanceOf(DecisionServiceUnavailableException.class);
            assertThat(new CommandGatewayHealthIndicator(cut).health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(cut.pendingCount()).isZero();
        } finally {
            cut.stop();
        }
    }

    @Test
    void aReplyPartitionTheTopicDoesNotHaveKeepsTheGatewayNotReady() throws Exception {
        CommandGateway cut = gateway(kafka(SharedTestInfra.kafka().bootstrapServers()), 99, Duration.ofSeconds(5));
        cut.start();
        try {
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> cut.state().contains("reply-partition=99"));
            assertThat(cut.isReady()).isFalse();
        } finally {
            cut.stop();
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
