package io.agentgateway.console.killswitch;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * A workspace's kill switch and pauses at a glance, from the read model: the state, and the last call that changed
 * it (who, when, why) overall and per paused tool. Blocking: call off the event loop.
 */
@Component
public class KillSwitchState {
    /** The last kill-switch call of a kind: who, when, why. */
    public record Change(String action, String tool, String actorUserId, Instant occurredAt, String reason) {}

    public record State(boolean enabled, List<String> pausedTools, Change lastSwitch, List<Change> lastPerTool) {
        public Optional<Change> lastFor(String tool) {
            return lastPerTool.stream().filter(c -> tool.equals(c.tool())).findFirst();
        }
    }

    private final JdbcClient jdbc;

    KillSwitchState(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<State> of(UUID workspaceId) {
        return jdbc.sql("select kill_switch_enabled, paused_tools from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> new Object[] {rs.getBoolean(1), Arrays.asList((String[]) rs.getArray(2).getArray())})
                .optional()
                .map(row -> {
                    @SuppressWarnings("unchecked")
                    List<String> paused = (List<String>) row[1];
                    Change lastSwitch = jdbc.sql("""
                                    select action, tool, actor_user_id, occurred_at, reason from kill_switch_history
                                     where workspace_id = :id and action in ('enable', 'disable')
                                     order by occurred_at desc limit 1
                                    """)
                            .param("id", workspaceId).query((rs, n) -> change(rs)).optional().orElse(null);
                    List<Change> perTool = jdbc.sql("""
                                    select distinct on (tool) action, tool, actor_user_id, occurred_at, reason
                                      from kill_switch_history
                                     where workspace_id = :id and action in ('pause_tool', 'resume_tool')
                                     order by tool, occurred_at desc
                                    """)
                            .param("id", workspaceId).query((rs, n) -> change(rs)).list();
                    return new State((Boolean) row[0], paused, lastSwitch, perTool);
                });
    }

    private static Change change(java.sql.ResultSet rs) throws java.sql.SQLException {
        Timestamp at = rs.getTimestamp("occurred_at");
        return new Change(rs.getString("action"), rs.getString("tool"), rs.getString("actor_user_id"),
                at == null ? null : at.toInstant(), rs.getString("reason"));
    }
}
