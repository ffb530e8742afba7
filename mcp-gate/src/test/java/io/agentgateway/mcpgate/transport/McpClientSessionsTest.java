package io.agentgateway.mcpgate.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.mcpgate.config.McpGateProperties;
import io.agentgateway.mcpgate.session.McpClientSession;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A key holder who opens client sessions without end costs a replica at most the workspace's cap of upstream
 * sessions: beyond it the workspace's least recently used idle session is closed, a busy one never, and another
 * workspace's sessions are not touched.
 */
class McpClientSessionsTest {
    private final List<String> closed = new CopyOnWriteArrayList<>();
    private final McpClientSessions sessions = new McpClientSessions(session -> closed.add(session.id()), properties(2));

    private static McpGateProperties properties(int perWorkspace) {
        return new McpGateProperties(Duration.ofSeconds(60), Duration.ofSeconds(20), 65536, 1000, 256, Duration.ofSeconds(15),
                5, 20, Duration.ofMinutes(10), 20, 16777216, List.of(), Duration.ofMinutes(5), Duration.ofMinutes(10), perWorkspace, 100);
    }

    @AfterEach
    void stop() {
        sessions.destroy();
    }

    @Test
    void aWorkspaceOverItsCapLosesItsLeastRecentlyUsedIdleSession() {
        UUID workspace = UUID.randomUUID();
        UUID other = UUID.randomUUID();
        sessions.of(other, "other-1", null);
        sessions.of(other, "other-2", null);
        McpClientSession first = sessions.of(workspace, "s1", null);
        sessions.of(workspace, "s2", null);
        sessions.of(workspace, "s1", null); // used again: s2 is now the one used longest ago

        sessions.of(workspace, "s3", null);

        assertThat(closed).containsExactly("s2");
        assertThat(sessions.of(workspace, "s1", null)).isSameAs(first);
        assertThat(sessions.size()).isEqualTo(4);
    }

    @Test
    void aSessionWithARequestInFlightIsNeverClosedToMakeRoom() {
        UUID workspace = UUID.randomUUID();
        McpClientSession busy = sessions.of(workspace, "busy", null);
        busy.inFlight(tools.jackson.databind.node.IntNode.valueOf(1), () -> { });
        sessions.of(workspace, "idle", null);

        sessions.of(workspace, "new", null);

        assertThat(closed).containsExactly("idle");
    }
}
