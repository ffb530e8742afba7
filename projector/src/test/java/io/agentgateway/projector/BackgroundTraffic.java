package io.agentgateway.projector;

import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.event.ActionEvaluated;
import io.agentgateway.schemas.event.ApprovalRequested;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.KillSwitchChanged;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.secret.SealedSecret;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Events that keep arriving on a thread of their own, as a running gateway's would: evaluations,
 * approvals and kill-switch changes of some workspaces, in rounds, until stopped.
 */
final class BackgroundTraffic implements AutoCloseable {
    private final EventPublisher publisher;
    private final List<WorkspaceEvents> workspaces;
    private final List<EventEnvelope> published = new CopyOnWriteArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Thread thread;
    private volatile RuntimeException failure;

    private BackgroundTraffic(EventPublisher publisher, List<WorkspaceEvents> workspaces) {
        this.publisher = publisher;
        this.workspaces = workspaces;
        this.thread = new Thread(this::publishRounds, "background-traffic");
    }

    /** The workspaces must not be used by anyone else until it is closed. */
    static BackgroundTraffic start(EventPublisher publisher, List<WorkspaceEvents> workspaces) {
        BackgroundTraffic traffic = new BackgroundTraffic(publisher, workspaces);
        traffic.thread.start();
        return traffic;
    }

    private void publishRounds() {
        try {
            for (int round = 0; running.get(); round++) {
                List<EventEnvelope> events = new ArrayList<>();
                for (WorkspaceEvents ws : workspaces) {
                    for (int i = 0; i < 5; i++) {
                        // entries of the workspace's Merkle log, as the decision stream seals them
                        events.add(ws.sealed(ws.evaluation("docs.read." + round)));
                    }
                    if (round % 10 == 5) {
                        // an entry that is no audit row (it also erases the payload just projected) and a checkpoint
                        events.add(ws.sealedErasure(((ActionEvaluated) events.get(events.size() - 1).event()).auditLogId()));
                        events.add(ws.checkpoint());
                    }
                    events.add(ws.stateChange(c -> new ApprovalRequested(DerivedIds.approvalId(c), DerivedIds.auditLogId(c),
                            Tool.CODE_HOST, "pull_request.merge", RiskLevel.HIGH, "agent-1", "digest-" + c,
                            Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MILLIS))));
                    if (round % 10 == 0) {
                        String repo = "acme/repo-" + round;
                        events.add(ws.stateChange(c -> new ToolConnectionUpserted(new ToolConnection(Tool.CODE_HOST,
                                new ToolConnectionConfig(List.of(repo), "acme", null, null), SealedSecret.of("v1.dG9rZW4"),
                                SealedSecret.of("v1.c2VjcmV0"), null, null, null, "https://code-host.example"))));
                        boolean enable = round % 20 == 0;
                        events.add(ws.stateChange(c -> new KillSwitchChanged(DerivedIds.auditLogId(c),
                                enable ? KillSwitchAction.ENABLE : KillSwitchAction.DISABLE, null, enable, Set.of())));
                    }
                }
                publisher.publish(events);
                published.addAll(events);
                Thread.sleep(2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    int publishedCount() {
        return published.size();
    }

    /** Stops and returns everything it published. */
    List<EventEnvelope> stop() {
        running.set(false);
        try {
            thread.join(30_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) {
            throw failure;
        }
        return List.copyOf(published);
    }

    @Override
    public void close() {
        stop();
    }
}
