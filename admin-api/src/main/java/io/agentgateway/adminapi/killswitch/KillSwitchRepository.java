package io.agentgateway.adminapi.killswitch;

import io.agentgateway.httpedge.web.SqlRows;
import java.util.Optional;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** Reads a workspace's kill switch from the projector's {@code workspaces} table. Blocking: call off the event loop. */
@Repository
class KillSwitchRepository {
    private final JdbcClient jdbc;

    KillSwitchRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Empty when the workspace does not exist. */
    Optional<KillSwitch.State> state(UUID workspaceId) {
        return jdbc.sql("select kill_switch_enabled, paused_tools from workspaces where id = :id")
                .param("id", workspaceId)
                .query((rs, row) -> new KillSwitch.State(rs.getBoolean("kill_switch_enabled"),
                        SqlRows.textArray(rs, "paused_tools").stream().sorted().toList()))
                .optional();
    }
}
