package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.local.LocalReplyChannel;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.internal.ThreadExecutorMap;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.errors.TimeoutException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Request-reply over Kafka: publishes a command to the commands topic (keyed by workspace id, so it
 * takes its place in the workspace's total order) and completes when the decision stream's reply
 * for that command id arrives on this instance's reply partition.
 *
 * <p>Fails closed: not ready or the send fails → {@link DecisionServiceUnavailableException};
 * no reply within the reply timeout → {@link DecisionTimeoutException}. There is no fallback answer.
 * Nothing here blocks the calling thread: the producer's topic metadata is fetched before the
 * gateway reports ready and is never evicted (see {@code GatewayKafkaConfigs}), so {@code send}
 * only serializes and appends to the producer's buffer. (Only a full buffer, 32 MB of unsent
 * commands, could make it wait, at most {@code max.block.ms}, 1 s by default.)
 *
 * <p>An evaluation answered 503/504, or whose caller hung up first (the subscription cancelled before the reply), is
 * reported to the decision stream afterwards ({@link CallerGaveUpReports}): whatever it decided for it reached nobody.
 * Only a command that was published, or whose publish was tried, is reported; the caller's answer never waits for the
 * report. With an {@link InFlightJournal} every evaluation waiting for its reply is journaled, so that the next start
 * after a crash reports those too (the caller saw its connection drop).
 *
 * <p>With tracing on, each send is a span from the publish to the reply ({@link CommandSpan}), a child of the request
 * that sent it, and the command record carries its {@code traceparent}; off, the record is published as it always was.
 *
 * <p>With a {@link LocalReplyChannel} (the decision stream runs in this process: the embedded default) the
 * stream hands this instance's replies over directly, once what the decision wrote is durable, instead of
 * writing them to the replies topic for the listener to fetch back; the listener still answers the rest.
 */
public class CommandGateway implements SmartLifecycle {
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);
    /**
     * How much longer than the deadline it names this waits for a reply. The decision stream answers only
     * what it decided before the deadline (by its clock); a reply decided just before it still has to
     * travel back, and hosts' clocks differ by a little. A reply that comes later is for nobody, and the
     * stream sends none for an evaluation it decided after the deadline (it records it as undelivered).
     */
    static final Duration DEADLINE_GRACE = Duration.ofMillis(500);

    private final Producer<String, CommandEnvelope> producer;
    private final ReplyListener replies;
    private final PendingReplies pending;
    private final int replyPartition;
    private final Duration replyTimeout;
    private final LocalReplyChannel localReplies;
    private final LocalReplyChannel.Receiver localReceiver;
    private final CallerGaveUpReports gaveUp;
    private final Optional<InFlightJournal> journal;
    private final GatewayTracing tracing;
    private volatile boolean started;

    /** @param journal this replica's in-flight journal, if it keeps one (without, a crash leaves its unanswered decisions unmarked) */
    CommandGateway(Producer<String, CommandEnvelope> producer, ReplyListener replies, PendingReplies pending,
                   int replyPartition, Duration replyTimeout, LocalReplyChannel localReplies, CallerGaveUpReports gaveUp,
                   Optional<InFlightJournal> journal, GatewayTracing tracing) {
        this.producer = producer;
        this.tracing = tracing;
        this.gaveUp = gaveUp;
        this.journal = journal;
        this.replies = replies;
        this.pending = pending;
        this.replyPartition = replyPartition;
        this.replyTimeout = replyTimeout;
        this.localReplies = localReplies;
        this.localReceiver = new LocalReplyChannel.Receiver() {
            @Override
            public boolean isWaiting(String commandId) {
                return pending.isWaiting(commandId);
            }

            @Override
            public void deliver(Reply reply) {
                pending.complete(reply.commandId(), reply);
            }
        };
    }

    /**
     * Publishes {@code command} for {@code workspaceId} and waits for its reply.
     * Every reply status is delivered as a value; only transport failures are errors.
     */
    public Mono<Reply> send(String workspaceId, String correlationId, Actor actor, Command command) {
        return Mono.defer(() -> send(UUID.randomUUID().toString(), workspaceId, correlationId, actor, command));
    }

    /**
     * As {@link #send(String, String, Actor, Command)} with a command id of the caller's choosing: a
     * caller that retries after a timeout with the same id gets the decision stream's stored answer to
     * the first attempt (its dedupe) instead of a second decision.
     */
    public Mono<Reply> send(String commandId, String workspaceId, String correlationId, Actor actor, Command command) {
        return Mono.deferContextual(requestContext -> {
            if (!replies.isReady()) {
                return Mono.error(new DecisionServiceUnavailableException("command gateway not ready: " + replies.state()));
            }
            // microseconds, PostgreSQL's resolution: a time derived from acceptedAt (an approval's
            // expiresAt) reads back from the read model exactly as the decision stream has it
            Instant acceptedAt = Instant.now().truncatedTo(ChronoUnit.MICROS);
            // the deadline: after it this caller has its 504, so a decision made later reached nobody
            CommandEnvelope envelope = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION, commandId, workspaceId,
                    correlationId, acceptedAt, replyPartition, actor, command, acceptedAt.plus(replyTimeout));
            // captured here, on the thread that asks (see answeringScheduler)
            Scheduler answerOn = answeringScheduler();
            // registered before the send: a reply can never arrive for an unknown command id
            Mono<Reply> reply = pending.register(commandId).asMono();
            AtomicReference<Exception> publishInDoubt = new AtomicReference<>();
            // journaled before it can be decided: a crash from here until the reply is handed on leaves it for the
            // next start to report
            InFlightJournal.Entry inFlight = journal.filter(journaled -> command instanceof EvaluateAction)
                    .map(journaled -> journaled.record(commandId, workspaceId, correlationId, acceptedAt))
                    .orElse(InFlightJournal.Entry.NONE);
            // the one way this attempt ends for the caller: answered, or reported as reaching nobody
            AtomicBoolean settled = new AtomicBoolean();
            ProducerRecord<String, CommandEnvelope> record = new ProducerRecord<>(Topics.COMMANDS.name(), workspaceId, envelope);
            // tracing off: nothing made, nothing added to the record
            CommandSpan span = tracing.enabled() ? CommandSpan.start(tracing, requestContext, envelope, record.headers()) : null;
            try {
                producer.send(record, (metadata, error) -> {
                    if (error == null) {
                        return;
                    }
                    if (error instanceof TimeoutException) {
                        // the record may have been written all the same (its acknowledgement was lost): keep
                        // waiting, so that a decision made in time is answered rather than made behind a 503
                        publishInDoubt.set(error);
                    } else {
                        pending.fail(commandId, new DecisionServiceUnavailableException("cannot publish command " + commandId, error));
                    }
                });
            } catch (KafkaException | IllegalStateException e) {
                // nothing was published: nothing to report
                pending.forget(commandId);
                inFlight.release();
                DecisionServiceUnavailableException unavailable = new DecisionServiceUnavailableException("cannot publish command " + commandId, e);
                if (span != null) {
                    span.failed(unavailable);
                }
                return Mono.error(unavailable);
            }
            // an exchange that writes the decision as its own answer releases the entry once that answer is written
            Optional<AnswerWrites> writes = requestContext.getOrEmpty(AnswerWrites.CONTEXT_KEY);
            Mono<Reply> answered = awaitReply(reply, commandId, envelope, answerOn, publishInDoubt, settled, inFlight, writes);
            return span == null ? answered : span.around(answered);
        });
    }

    private Mono<Reply> awaitReply(Mono<Reply> reply, String commandId, CommandEnvelope envelope, Scheduler answerOn,
                                   AtomicReference<Exception> publishInDoubt, AtomicBoolean settled, InFlightJournal.Entry inFlight,
                                   Optional<AnswerWrites> writes) {
        // every way out removes the entry before the caller hears of it; doFinally covers cancellation
        return reply
                // the reply arrives on the one reply-listener thread (or, in process, the decision stream's
                // producer I/O thread); without this hop the whole response (mapping, JSON encoding, the
                // write) would run there, one at a time
                .publishOn(answerOn)
                // released once the answer is written where the exchange says when that is (AnswerWrites: a crash
                // before it leaves the entry for the next start to report, a lost answer is reported now), else as
                // the reply is handed on
                .doOnNext(answer -> {
                    settled.set(true);
                    writes.ifPresentOrElse(answerWrites -> answerWrites.hold(inFlight::release,
                            () -> gaveUp.report(envelope, RecordCallerGaveUp.CLIENT_CLOSED_REQUEST, inFlight)), inFlight::release);
                })
                .timeout(replyTimeout.plus(DEADLINE_GRACE), Mono.defer(() -> {
                    pending.forget(commandId);
                    Exception doubt = publishInDoubt.get();
                    return Mono.error(doubt != null
                            ? new DecisionServiceUnavailableException("cannot publish command " + commandId, doubt)
                            : new DecisionTimeoutException(commandId, replyTimeout));
                }))
                // the caller gets 503/504 whatever the stream decided: it is told so, behind the caller's back
                // (an evaluation decided in time is then recorded as undelivered, see CallerGaveUpReports)
                .doOnError(DecisionTimeoutException.class,
                        e -> reportGaveUp(settled, envelope, RecordCallerGaveUp.GATEWAY_TIMEOUT, inFlight))
                .doOnError(DecisionServiceUnavailableException.class,
                        e -> reportGaveUp(settled, envelope, RecordCallerGaveUp.SERVICE_UNAVAILABLE, inFlight))
                .doFinally(signal -> {
                    pending.forget(commandId);
                    if (signal == SignalType.CANCEL) {
                        // the caller hung up before its reply came (a cancel after the reply changes nothing)
                        reportGaveUp(settled, envelope, RecordCallerGaveUp.CLIENT_CLOSED_REQUEST, inFlight);
                    } else if (settled.compareAndSet(false, true)) {
                        inFlight.release();
                    }
                });
    }

    private void reportGaveUp(AtomicBoolean settled, CommandEnvelope envelope, int answeredStatus, InFlightJournal.Entry inFlight) {
        if (settled.compareAndSet(false, true)) {
            gaveUp.report(envelope, answeredStatus, inFlight);
        }
    }

    /**
     * Where a reply is answered: on the Netty event loop of the HTTP connection that asked, when the
     * command is sent from one (every HTTP handler does), since Netty writes the response there anyway:
     * one hand-off per reply instead of two (reply listener → parallel → event loop). Anywhere else
     * (the approval executor, tests) on the parallel scheduler.
     */
    private static Scheduler answeringScheduler() {
        EventExecutor eventLoop = ThreadExecutorMap.currentExecutor();
        return eventLoop == null ? Schedulers.parallel() : Schedulers.fromExecutor(eventLoop);
    }

    /** Whether commands can be sent now: the reply position is known and the producer knows the topic. */
    public boolean isReady() {
        return replies.isReady();
    }

    /** Blocks until ready or until the timeout; for launchers and tests, never for request threads. */
    public boolean awaitReady(Duration timeout) throws InterruptedException {
        return replies.awaitReady(timeout);
    }

    /** Why the gateway is or is not ready, for the health endpoint. */
    public String state() {
        return replies.state();
    }

    public int replyPartition() {
        return replyPartition;
    }

    /** Whether replies can come straight from a decision stream in this process. */
    public boolean repliesInProcess() {
        return localReplies != null;
    }

    public int pendingCount() {
        return pending.size();
    }

    @Override
    public void start() {
        if (localReplies != null) {
            localReplies.attach(replyPartition, localReceiver);
        }
        replies.start();
        // what this replica's previous process published and never answered reached nobody
        journal.ifPresent(previous -> previous.unanswered().forEach(gaveUp::report));
        started = true;
    }

    @Override
    public void stop() {
        started = false;
        if (localReplies != null) {
            localReplies.detach(replyPartition, localReceiver);
        }
        replies.stop(STOP_GRACE);
        gaveUp.close();
        producer.close(Duration.ofSeconds(2));
        // after the producer: a report it acknowledged while closing has released its entry
        journal.ifPresent(InFlightJournal::close);
    }

    @Override
    public boolean isRunning() {
        return started;
    }

    /**
     * Starts before the web server accepts requests and stops after its graceful shutdown has
     * drained them: requests in flight at shutdown still get their replies.
     */
    @Override
    public int getPhase() {
        return WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE - 1;
    }
}
