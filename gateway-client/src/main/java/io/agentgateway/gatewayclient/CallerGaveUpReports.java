package io.agentgateway.gatewayclient;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.command.CommandEnvelope;
import io.agentgateway.schemas.command.EvaluateAction;
import io.agentgateway.schemas.command.RecordCallerGaveUp;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the decision stream that an evaluation's caller was answered 503 or 504, hung up before its answer (499), or
 * was never answered because this replica's previous process died first ({@link InFlightJournal}; DESIGN.md
 * "Deadlines", docs/decisions/0004-deadlines-and-undelivered-decisions.md): a {@link RecordCallerGaveUp} on the
 * commands topic, keyed by the workspace like the evaluation, so it takes its place after it in the partition's log
 * (the producer is idempotent and keeps a partition's order). The stream then records a decision it made in time all
 * the same as undelivered and ends the approval it opened.
 *
 * <p>Never in the caller's way: {@link #report} only hands the report to this class's own thread, which sends it.
 * A send that fails (the broker still down) is tried again every {@code retryEvery} for up to {@code retryFor} after
 * the answer; at most {@code capacity} reports wait at once. One that cannot be sent in that time, or finds no room,
 * is dropped: counted ({@value #METER}, {@code outcome=dropped}) and logged as a WARN at most every
 * {@link #WARN_EVERY}. The decision then stays recorded as delivered, as before this class existed (but for a report
 * still waiting when the ingress stops: its journal entry is kept, and the next start reports it). Its command id
 * derives from the evaluation's id and acceptedAt, so a report sent twice (a send in doubt, tried again) is one
 * report for the stream.
 */
final class CallerGaveUpReports implements AutoCloseable {
    static final String METER = "gateway.ingress.caller_gave_up";
    static final Actor ACTOR = Actor.system("ingress");
    static final Duration RETRY_FOR = Duration.ofSeconds(60);
    static final Duration RETRY_EVERY = Duration.ofSeconds(1);
    static final int CAPACITY = 10_000;
    static final Duration WARN_EVERY = Duration.ofSeconds(10);
    private static final Logger log = LoggerFactory.getLogger(CallerGaveUpReports.class);

    private final Producer<String, CommandEnvelope> producer;
    private final Duration retryFor;
    private final int capacity;
    private final ScheduledExecutorService thread;
    /** Reports not yet acknowledged nor dropped: the bound. */
    private final AtomicInteger outstanding = new AtomicInteger();
    /** Failed sends waiting for the next round; touched by {@link #thread} only. */
    private final Queue<Report> waiting = new ArrayDeque<>();
    private final Counter published;
    private final Counter retried;
    private final Counter dropped;
    private final AtomicLong droppedSinceWarning = new AtomicLong();
    private final AtomicLong lastWarningNanos = new AtomicLong(System.nanoTime() - WARN_EVERY.toNanos());

    CallerGaveUpReports(Producer<String, CommandEnvelope> producer, MeterRegistry meters) {
        this(producer, meters, RETRY_FOR, RETRY_EVERY, CAPACITY);
    }

    CallerGaveUpReports(Producer<String, CommandEnvelope> producer, MeterRegistry meters, Duration retryFor,
                        Duration retryEvery, int capacity) {
        this.producer = producer;
        this.retryFor = retryFor;
        this.capacity = capacity;
        this.thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread t = new Thread(runnable, "ingress-caller-gave-up");
            t.setDaemon(true);
            return t;
        });
        this.published = counter(meters, "published", "reports the broker acknowledged");
        this.retried = counter(meters, "retried", "sends that failed and were tried again");
        this.dropped = counter(meters, "dropped", "reports given up on (no room, or no broker for the whole retry time)");
        thread.scheduleWithFixedDelay(this::retryWaiting, retryEvery.toMillis(), retryEvery.toMillis(), TimeUnit.MILLISECONDS);
    }

    private static Counter counter(MeterRegistry meters, String outcome, String description) {
        return Counter.builder(METER).description("RecordCallerGaveUp reports: " + description).tag("outcome", outcome)
                .register(meters);
    }

    /**
     * Reports that {@code evaluation}'s caller was answered {@code answeredStatus} instead of its decision (503/504,
     * or 499: it hung up first); anything but an evaluation is ignored (nothing else is recorded as reaching its
     * caller). Returns at once. {@code inFlight} is released once the broker acknowledged the report, or it is dropped
     * for want of room or of a broker; a report still waiting when this stops keeps it (the next start reports it).
     */
    void report(CommandEnvelope evaluation, int answeredStatus, InFlightJournal.Entry inFlight) {
        if (!(evaluation.command() instanceof EvaluateAction)) {
            inFlight.release();
            return;
        }
        report(evaluation.commandId(), evaluation.acceptedAt(), evaluation.workspaceId(), evaluation.correlationId(),
                answeredStatus, inFlight);
    }

    /** Reports an evaluation the previous process of this replica published and never answered (its journal). */
    void report(InFlightJournal.Unanswered unanswered) {
        report(unanswered.commandId(), unanswered.acceptedAt(), unanswered.workspaceId(), unanswered.correlationId(),
                RecordCallerGaveUp.NOT_ANSWERED, unanswered.entry());
    }

    private void report(String commandId, Instant acceptedAt, String workspaceId, String correlationId, int answeredStatus,
                        InFlightJournal.Entry inFlight) {
        if (outstanding.incrementAndGet() > capacity) {
            outstanding.decrementAndGet();
            inFlight.release();
            drop("no room for more reports waiting to be sent (" + capacity + ")");
            return;
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        CommandEnvelope gaveUp = new CommandEnvelope(CommandEnvelope.CURRENT_VERSION,
                DerivedIds.callerGaveUpId(commandId, acceptedAt), workspaceId, correlationId, now, null, ACTOR,
                new RecordCallerGaveUp(commandId, acceptedAt, answeredStatus), null);
        Report report = new Report(gaveUp, System.nanoTime() + retryFor.toNanos(), inFlight);
        try {
            thread.execute(() -> send(report));
        } catch (RejectedExecutionException e) {
            // stopping: the journal keeps it for the next start
            outstanding.decrementAndGet();
            drop("the ingress is stopping");
        }
    }

    /** Reports sent or waiting for another try, not yet acknowledged. */
    int outstanding() {
        return outstanding.get();
    }

    private void send(Report report) {
        try {
            producer.send(new ProducerRecord<>(Topics.COMMANDS.name(), report.envelope().workspaceId(), report.envelope()),
                    (metadata, error) -> {
                        if (error == null) {
                            outstanding.decrementAndGet();
                            report.inFlight().release();
                            published.increment();
                        } else {
                            sendFailed(report);
                        }
                    });
        } catch (KafkaException | IllegalStateException e) {
            sendFailed(report);
        }
    }

    /** From the producer's I/O thread or this one: the next round (on this thread) tries it again. */
    private void sendFailed(Report report) {
        if (System.nanoTime() - report.giveUpAtNanos() > 0) {
            outstanding.decrementAndGet();
            report.inFlight().release();
            drop("the commands topic could not be written to for " + retryFor.toSeconds() + " s");
            return;
        }
        try {
            thread.execute(() -> waiting.add(report));
        } catch (RejectedExecutionException e) {
            outstanding.decrementAndGet();
            drop("the ingress is stopping");
        }
    }

    private void retryWaiting() {
        for (int n = waiting.size(); n > 0; n--) {
            Report report = waiting.poll();
            retried.increment();
            send(report);
        }
    }

    private void drop(String why) {
        dropped.increment();
        long count = droppedSinceWarning.incrementAndGet();
        long last = lastWarningNanos.get();
        long now = System.nanoTime();
        if (now - last >= WARN_EVERY.toNanos() && lastWarningNanos.compareAndSet(last, now)) {
            droppedSinceWarning.addAndGet(-count);
            // a WARN, never an ERROR: the caller had its 503/504; only the audit entry stays unmarked
            log.warn("dropped {} report(s) that an evaluation's answer reached nobody (last: {}); those decisions stay "
                    + "recorded as delivered unless the in-flight journal reports them at the next start", count, why);
        }
    }

    /**
     * Stops; reports still waiting are dropped (counted), their journal entries kept for the next start. Before the
     * producer closes.
     */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        int left = waiting.size();
        waiting.clear();
        for (int i = 0; i < left; i++) {
            outstanding.decrementAndGet();
            drop("the ingress stopped");
        }
    }

    private record Report(CommandEnvelope envelope, long giveUpAtNanos, InFlightJournal.Entry inFlight) {}
}
