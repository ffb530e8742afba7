package io.agentgateway.actiongate.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.actiongate.connection.ToolConnectionView.Known;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.command.Reply;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The one copy of the connections: fed by the stream's answers only, the newest answer kept. */
class ToolConnectionViewTest {
    private final ToolConnectionView view = new ToolConnectionView();
    private final UUID workspace = UUID.randomUUID();

    private static ToolConnection mcp(long version) {
        return new ToolConnection(Tool.MCP, ToolConnectionConfig.none(), null, null, "https://mcp.example/" + version, null,
                null, null, version);
    }

    private Reply stale(ToolConnection current, long workspaceVersion) {
        return new Reply(Reply.CURRENT_VERSION, UUID.randomUUID().toString(), "c", workspace.toString(), 0, ReplyStatus.STALE,
                "stale", null, current, workspaceVersion, null);
    }

    @Test
    void knowingNothingIsHoldingNoConnection() {
        Known nothing = view.known(workspace, Tool.MCP);
        assertThat(nothing.connected()).isFalse();
        assertThat(nothing.version()).isEqualTo(ToolConnection.NONE);
    }

    @Test
    void aNewerAnswerReplacesAnOlderOneButNeverTheOtherWayRound() {
        view.adopt(workspace, Tool.MCP, stale(mcp(5), 6));
        assertThat(view.known(workspace, Tool.MCP).version()).isEqualTo(5);

        // deleted at 9: none is the newer answer
        view.adopt(workspace, Tool.MCP, stale(null, 9));
        assertThat(view.known(workspace, Tool.MCP).connected()).isFalse();

        // an answer decided earlier, handled later (another event loop), does not bring it back
        view.adopt(workspace, Tool.MCP, stale(mcp(5), 7));
        assertThat(view.known(workspace, Tool.MCP).connected()).isFalse();

        Known adopted = view.adopt(workspace, Tool.MCP, stale(mcp(12), 12));
        assertThat(adopted.version()).isEqualTo(12);
        assertThat(adopted.observedAt()).isEqualTo(12);
        assertThat(view.known(workspace, Tool.CODE_HOST)).as("per tool").isEqualTo(Known.NOTHING);
    }

    @Test
    void theViewIsBounded() {
        for (int i = 0; i <= ToolConnectionView.MAX_ENTRIES; i++) {
            view.adopt(UUID.randomUUID(), Tool.MCP, new Known(1, mcp(1)));
        }
        assertThat(view.size()).isLessThanOrEqualTo(ToolConnectionView.MAX_ENTRIES);
    }
}
