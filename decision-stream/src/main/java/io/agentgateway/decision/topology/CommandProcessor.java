package io.agentgateway.decision.topology;

import io.agentgateway.decision.DecisionSettings;
import io.agentgateway.decision.handling.CommandHandlers;
import io.agentgateway.decision.handling.CommandResult;
import io.agentgateway.decision.outcome.Outcome;
import io.agentgateway.decision.outcome.OutcomeAssembler;
import io.agentgateway.decision.state.WorkspaceState;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.CommandEnvelope;
import java.util.Optional;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides each command once: check the envelope, re-emit the stored outcome of a command id seen
 * before, otherwise decide against the workspace state, store the new state and the outcome, emit.
 * A command whose handling throws is answered "internal error" and does not stop the stream: one bad
 * command must not halt every workspace on the partition.
 */
final class CommandProcessor implements Processor<String, CommandEnvelope, String, Object> {
    private static final Logger log = LoggerFactory.getLogger(CommandProcessor.class);
    static final String INTERNAL_ERROR = "internal error";

    private final DecisionSettings settings;
    private final CommandHandlers handlers;
    private final OutcomeAssembler assembler = new OutcomeAssembler();
    private WorkspaceStates states;
    private ProcessedCommands processed;
    private WebhookDeliveries deliveries;
    private OutcomeEmitter emitter;
    private ProcessorContext<String, Object> context;

    CommandProcessor(DecisionSettings settings) {
        this.settings = settings;
        this.handlers = new CommandHandlers(settings);
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        states = new WorkspaceStates(context.getStateStore(DecisionTopology.WORKSPACE_STATE_STORE), settings.approvalTtl());
        processed = new ProcessedCommands(context.getStateStore(DecisionTopology.PROCESSED_COMMANDS_STORE),
                settings.dedupeRetention());
        deliveries = new WebhookDeliveries(context.getStateStore(DecisionTopology.WEBHOOK_DELIVERIES_STORE));
        emitter = new OutcomeEmitter(context);
        this.context = context;
    }

    @Override
    public void process(Record<String, CommandEnvelope> record) {
        CommandEnvelope envelope = record.value();
        Optional<String> problem = EnvelopeCheck.problem(record.key(), envelope);
        if (problem.isPresent()) {
            log.warn("refusing command {} of workspace {}: {}", envelope == null ? null : envelope.commandId(),
                    envelope == null ? record.key() : envelope.workspaceId(), problem.get());
            emitter.emit(envelope, Outcome.rejected(record.key(), ReplyStatus.INVALID, problem.get()), record.timestamp());
            return;
        }
        long timestamp = envelope.acceptedAt().toEpochMilli();
        Outcome outcome = outcomeOf(envelope);
        emitter.emit(DeadlineCheck.recipient(envelope, outcome), outcome, timestamp);
    }

    private Outcome outcomeOf(CommandEnvelope envelope) {
        try {
            Optional<Outcome> earlier = processed.find(envelope.commandId(), envelope.acceptedAt());
            if (earlier.isPresent() && DeadlineCheck.undelivered(earlier.get())
                    && !DeadlineCheck.missed(envelope, context.currentSystemTimeMs())) {
                // the first attempt reached nobody and this retry is still awaited: decided afresh (see DeadlineCheck).
                // A late command redelivered (or a retry that is late too) gets the stored outcome again below
                Outcome retried = decide(envelope.withCommandId(DeadlineCheck.retryCommandId(envelope)));
                if (!DeadlineCheck.undelivered(retried)) {
                    processed.remember(envelope.commandId(), envelope.acceptedAt(), retried);
                }
                return retried;
            }
            if (earlier.isPresent()) {
                return sameWorkspace(envelope, earlier.get());
            }
            return decide(envelope);
        } catch (RuntimeException e) {
            // the exception's message may quote the payload: log where it failed, not what it said
            log.error("command {} ({}) of workspace {} failed with {}", envelope.commandId(),
                    envelope.command().getClass().getSimpleName(), envelope.workspaceId(), e.getClass().getName(),
                    withoutMessage(e));
            return Outcome.rejected(envelope.workspaceId(), ReplyStatus.INVALID, INTERNAL_ERROR);
        }
    }

    private Outcome decide(CommandEnvelope envelope) {
        Optional<Outcome> duplicate = deliveries.duplicateOf(envelope);
        if (duplicate.isPresent()) {
            processed.remember(envelope.commandId(), envelope.acceptedAt(), duplicate.get());
            return duplicate.get();
        }
        WorkspaceState before = states.load(envelope.workspaceId());
        CommandResult result = handlers.handle(envelope, before);
        if (DeadlineCheck.missed(envelope, context.currentSystemTimeMs())) {
            result = DeadlineCheck.undelivered(before, result);
        }
        WorkspaceState after = result.state().equals(before)
                ? before
                : result.state().withWorkspaceVersion(before.workspaceVersion() + 1);
        Outcome outcome = assembler.assemble(envelope, result, after);
        if (after != before) {
            states.save(envelope.workspaceId(), after);
        }
        processed.remember(envelope.commandId(), envelope.acceptedAt(), outcome);
        deliveries.remember(envelope, outcome);
        return outcome;
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
