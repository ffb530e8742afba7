package io.agentgateway.decisionstream.topology;

import io.agentgateway.decisioncore.core.CommandDecision;
import io.agentgateway.decisioncore.core.DecisionCore;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.evidence.EvidenceSettings;
import io.agentgateway.decisioncore.outcome.Outcome;
import io.agentgateway.decisioncore.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.ClaimApprovedCall;
import io.agentgateway.schemas.command.Command;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.ReceiveWebhook;
import io.agentgateway.schemas.command.RecordCallExecution;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.agentgateway.schemas.command.ReviewApproval;
import io.agentgateway.schemas.command.WithdrawApproval;
import io.agentgateway.schemas.command.RevokeApiKey;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;
import io.agentgateway.schemas.Topics;
import io.agentgateway.gatewaytracing.GatewayAttributes;
import io.agentgateway.gatewaytracing.GatewayTracing;
import io.agentgateway.gatewaytracing.ReactorTracing;
import io.agentgateway.gatewaytracing.TraceHeaders;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides each command once: check the envelope, re-emit the outcome of a command id seen before,
 * otherwise decide against the workspace state, store what changed and the outcome, emit.
 *
 * <p>Failures: a handler that throws (a bug of ours, one command's) is answered "internal error", before
 * anything was written, and the stream goes on: one bad command must not halt every workspace on the
 * partition. Anything Kafka's (a store, a changelog write, a record that cannot be read back) is never
 * turned into a reply: it fails the task, which then restores from the changelogs, so the local stores
 * never keep a change their changelogs did not get ({@code DecisionStreamRunner}).
 */
final class CommandProcessor implements Processor<String, CommandEnvelope, String, Object> {
    private static final Logger log = LoggerFactory.getLogger(CommandProcessor.class);
    static final String INTERNAL_ERROR = "internal error";
    /** How often the wall-clock punctuator looks for logs owed a checkpoint (at most; less when the interval is shorter). */
    static final Duration CHECKPOINT_TIMER = Duration.ofSeconds(1);

    private final DecisionSettings settings;
    private final ReplyRoute replies;
    private final GatewayTracing tracing;
    private final DecisionCore core;
    private final EvidenceSettings evidenceSettings;
    private ProcessorContext<String, Object> context;
    private WorkspaceStores stores;
    private ProcessedCommands processed;
    private WebhookDeliveries deliveries;
    private OutcomeEmitter emitter;
    private ExpirySweep sweep;
    private EvidenceLogs evidence;

    CommandProcessor(DecisionSettings settings, ReplyRoute replies, GatewayTracing tracing, EvidenceSettings evidence) {
        this.settings = settings;
        this.replies = replies;
        this.tracing = tracing;
        this.core = new DecisionCore(settings);
        this.evidenceSettings = evidence;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        // a fresh view on every (re)initialization: after a restore nothing cached may outlive the stores
        stores = new WorkspaceStores(context, settings);
        processed = new ProcessedCommands(context.getStateStore(DecisionTopology.PROCESSED_COMMANDS_STORE),
                settings.dedupeRetention(), settings.payloadExcerptBytes());
        deliveries = new WebhookDeliveries(context.getStateStore(DecisionTopology.WEBHOOK_DELIVERIES_STORE));
        emitter = new OutcomeEmitter(context, replies);
        sweep = new ExpirySweep(stores, emitter);
        context.schedule(settings.sweepInterval(), PunctuationType.STREAM_TIME, sweep::run);
        evidence = new EvidenceLogs(context, evidenceSettings, emitter);
        if (evidenceSettings.enabled()) {
            // checkpoints by time are owed whether or not commands arrive: the wall clock, not stream time
            Duration every = evidenceSettings.checkpointInterval().compareTo(CHECKPOINT_TIMER) < 0
                    ? evidenceSettings.checkpointInterval() : CHECKPOINT_TIMER;
            context.schedule(every, PunctuationType.WALL_CLOCK_TIME, evidence::checkpointWaiting);
        }
    }

    @Override
    public void process(Record<String, CommandEnvelope> record) {
        if (!tracing.enabled()) {
            decideAndEmit(record);
            return;
        }
        // the span continues the command record's trace; every record emitted for it carries the span's context
        Span span = tracing.tracer().spanBuilder("decide " + GatewayAttributes.commandType(record.value() == null ? null : record.value().command()))
                .setSpanKind(SpanKind.CONSUMER).setParent(TraceHeaders.extract(record.headers()))
                .setAttribute(GatewayAttributes.MESSAGING_DESTINATION, Topics.COMMANDS.name()).startSpan();
        GatewayAttributes.command(span, record.value());
        emitter.tracedBy(span);
        try (Scope current = span.makeCurrent()) {
            decideAndEmit(record);
        } catch (RuntimeException e) {
            ReactorTracing.failed(span, e);
            throw e;
        } finally {
            emitter.tracedBy(null);
            span.end();
        }
    }

    private void decideAndEmit(Record<String, CommandEnvelope> record) {
        CommandEnvelope envelope = record.value();
        Optional<String> problem = EnvelopeCheck.problem(record.key(), envelope);
        if (problem.isPresent()) {
            log.warn("refusing command {} of workspace {}: {}", envelope == null ? null : envelope.commandId(),
                    envelope == null ? record.key() : envelope.workspaceId(), problem.get());
            emitter.emit(envelope, Outcome.rejected(record.key(), ReplyStatus.INVALID, problem.get()), record.timestamp());
            return;
        }
        long timestamp = envelope.acceptedAt().toEpochMilli();
        Outcome outcome = outcomeOf(envelope, Math.max(timestamp, context.currentStreamTimeMs()));
        emitter.emit(DeadlineCheck.recipient(envelope, outcome), outcome, timestamp);
    }

    private Outcome outcomeOf(CommandEnvelope envelope, long streamTime) {
        Optional<Outcome> earlier = processed.find(envelope).map(stored -> emittedAgain(envelope, stored));
        if (earlier.isPresent() && DeadlineCheck.undelivered(earlier.get())
                && !DeadlineCheck.missed(envelope, context.currentSystemTimeMs())
                // a redelivery of the attempt decided, which its caller's give-up marked undelivered before its deadline
                && !processed.decidedThisAttempt(envelope)) {
            // the first attempt reached nobody and this retry is still awaited: decided afresh (see DeadlineCheck).
            // A late command redelivered (or a retry that is late too) gets the stored outcome again below
            CommandEnvelope retry = envelope.withCommandId(DeadlineCheck.retryCommandId(envelope));
            // a redelivery of that retry finds it under its derived id
            Outcome retried = processed.find(retry).map(stored -> emittedAgain(retry, stored))
                    .orElseGet(() -> decideFresh(retry, streamTime));
            if (!DeadlineCheck.undelivered(retried)) {
                processed.rememberRetry(envelope, retry, retried, evidence.logAfter(retried));
            }
            return retried;
        }
        if (earlier.isPresent()) {
            return sameWorkspace(envelope, earlier.get());
        }
        return decideFresh(envelope, streamTime);
    }

    /**
     * A command decided before, rebuilt to be emitted again. The workspace's Merkle log catches up with the state its
     * seals left: the {@code evidence-log} store is written back only at commits, so after a crash under at-least-once
     * it may lack entries whose decisions were remembered; their commands come again, in log order, before any new one.
     */
    private Outcome emittedAgain(CommandEnvelope envelope, StoredOutcome stored) {
        evidence.catchUp(stored.workspaceId(), stored.evidenceLogBytes());
        return stored.restore(envelope);
    }

    /** Decides a command id not seen before. */
    private Outcome decideFresh(CommandEnvelope envelope, long streamTime) {
        if (envelope.command() instanceof RecordCallerGaveUp gaveUp) {
            return callerGaveUp(envelope, gaveUp, streamTime);
        }
        Optional<Outcome> duplicate = deliveries.duplicateOf(envelope);
        if (duplicate.isPresent()) {
            processed.remember(envelope, duplicate.get(), null);
            return duplicate.get();
        }
        WorkspaceState before = stores.load(envelope.workspaceId());
        if (dependsOnWhatIsDue(envelope.command(), before) && sweep.anyDue(streamTime)) {
            sweep.run(streamTime);
            before = stores.load(envelope.workspaceId());
        }
        Optional<CommandDecision> decided = decide(envelope, before);
        if (decided.isEmpty()) {
            // nothing was written: a redelivery is decided afresh
            return Outcome.rejected(envelope.workspaceId(), ReplyStatus.INVALID, INTERNAL_ERROR);
        }
        CommandDecision decision = DeadlineCheck.missed(envelope, context.currentSystemTimeMs())
                ? decided.get().undelivered()
                : decided.get();
        WorkspaceState after = stores.save(envelope.workspaceId(), before, decision.state());
        // sealed in decision order, before it is remembered: a redelivery re-emits the same seals
        Outcome outcome = evidence.seal(envelope, decision.outcome(after));
        processed.remember(envelope, outcome, evidence.logAfter(outcome));
        deliveries.remember(envelope, outcome);
        return outcome;
    }

    /**
     * The ingress answered an evaluation's caller 503/504: what was decided for that attempt (if anything, and in
     * this workspace) is handed to the core, which marks a decision made in time undelivered and ends its pending
     * approval; the attempt's stored outcome then becomes its undelivered form, so a retry of the command id is
     * decided afresh. The give-up's own outcome is remembered under its own (derived) id like any command's when it
     * marked something: a redelivery of it re-emits the same event, and a second give-up finds the attempt undelivered
     * (no event, nothing remembered).
     */
    private Outcome callerGaveUp(CommandEnvelope envelope, RecordCallerGaveUp gaveUp, long streamTime) {
        Optional<StoredOutcome> attempt = gaveUp.evaluationCommandId() == null || gaveUp.evaluationAcceptedAt() == null
                ? Optional.empty()
                : processed.attempt(gaveUp.evaluationCommandId(), gaveUp.evaluationAcceptedAt())
                        .filter(stored -> envelope.workspaceId().equals(stored.workspaceId()));
        if (sweep.anyDue(streamTime)) {
            // an approval due to expire expires first: it is not ended twice
            sweep.run(streamTime);
        }
        WorkspaceState before = stores.load(envelope.workspaceId());
        Optional<CommandDecision> decided = decide(envelope, () -> core.decideCallerGaveUp(envelope, before,
                attempt.flatMap(StoredOutcome::audit).orElse(null), attempt.map(StoredOutcome::decidedCommandId).orElse(null)));
        if (decided.isEmpty()) {
            return Outcome.rejected(envelope.workspaceId(), ReplyStatus.INVALID, INTERNAL_ERROR);
        }
        CommandDecision decision = decided.get();
        WorkspaceState after = stores.save(envelope.workspaceId(), before, decision.state());
        Outcome outcome = evidence.seal(envelope, decision.outcome(after));
        if (decision.events().isEmpty()) {
            // nothing marked (the attempt decided after its deadline marked itself, or was never decided here): nothing
            // to remember either, a redelivery finds the same and does the same. While the stream is behind, every
            // evaluation answered 504 brings one of these, as many as the evaluations themselves: they must cost
            // as little as possible, or they keep a backlog from draining
            return outcome;
        }
        processed.remember(envelope, outcome, evidence.logAfter(outcome));
        processed.markUndelivered(gaveUp.evaluationCommandId(), gaveUp.evaluationAcceptedAt());
        return outcome;
    }

    /**
     * Commands whose answer would differ had the sweep run just before them: those that read an approval or
     * a key by id, and evaluations in a workspace at its limit of open approvals (room may be due).
     */
    private boolean dependsOnWhatIsDue(Command command, WorkspaceState state) {
        if (command instanceof ReviewApproval || command instanceof WithdrawApproval || command instanceof ClaimApprovedCall
                || command instanceof RecordCallExecution || command instanceof IssueApiKey || command instanceof RevokeApiKey) {
            return true;
        }
        return (command instanceof EvaluateAction || command instanceof ReceiveWebhook)
                && state.openApprovalCount() >= settings.limits().openApprovals();
    }

    /** The core's decision, or empty when its handler itself failed (a bug: answered "internal error"). */
    private Optional<CommandDecision> decide(CommandEnvelope envelope, WorkspaceState before) {
        return decide(envelope, () -> core.decide(envelope, before));
    }

    private Optional<CommandDecision> decide(CommandEnvelope envelope, Supplier<CommandDecision> decision) {
        try {
            return Optional.of(decision.get());
        } catch (KafkaException e) {
            // a store read or a stored value that cannot be read: not the command's fault, never a business reply
            throw e;
        } catch (RuntimeException e) {
            // the exception's message may quote the payload: log where it failed, not what it said
            log.error("command {} ({}) of workspace {} failed with {}", envelope.commandId(),
                    envelope.command().getClass().getSimpleName(), envelope.workspaceId(), e.getClass().getName(),
                    withoutMessage(e));
            return Optional.empty();
        }
    }

    /** A command id reused for another workspace is refused rather than answered with someone else's outcome. */
    private static Outcome sameWorkspace(CommandEnvelope envelope, Outcome earlier) {
        if (earlier.workspaceId() != null && !earlier.workspaceId().equals(envelope.workspaceId())) {
            log.warn("command id {} was already used for another workspace", envelope.commandId());
            return Outcome.rejected(envelope.workspaceId(), ReplyStatus.INVALID, "commandId was already used");
        }
        return earlier;
    }

    private static Throwable withoutMessage(Throwable e) {
        RuntimeException bare = new RuntimeException(e.getClass().getName());
        bare.setStackTrace(e.getStackTrace());
        return bare;
    }
}
