package io.agentgateway.actiongate.connection;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.command.Reply;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The ingress's one copy of the workspaces' tool connections, for every entry point that sends
 * something with one (the proxy, the MCP gate, the webhook verifier, the approval executor). Fed only
 * by what the decision stream says: a {@code stale} reply, a granted claim and a {@code check_access}
 * reply carry the current connection (sealed) and the workspace version it was current at; nothing
 * else writes here: no events-topic listener, no read-model row.
 *
 * <p>It is never trusted on its own: every command whose execution uses a connection names the version
 * taken from here, and the stream decides only when that is the current one. So an entry that is old
 * costs one more round trip (the stale answer and the command again), never a call sent with an old
 * connection. Secrets stay sealed here; they are opened for each use.
 *
 * <p>Adoption keeps the newest: an answer decided under an older workspace version than the entry's
 * (replies can be handled out of order on different event loops) does not replace it. A workspace the
 * view knows nothing of counts as holding no connection ({@link ToolConnection#NONE}).
 */
@Component
public class ToolConnectionView {
    /** Entries dropped are only asked for again (a stale answer), so the bound is a plain cap. */
    static final int MAX_ENTRIES = 100_000;

    /**
     * What the view holds for a workspace's tool.
     *
     * @param observedAt the workspace version of the stream's answer that said so
     * @param connection sealed; null when the workspace has no connection to the tool
     */
    public record Known(long observedAt, ToolConnection connection) {
        /** Nothing known yet: named as "none", which the stream corrects if it has one. */
        public static final Known NOTHING = new Known(Long.MIN_VALUE, null);

        public long version() {
            return ToolConnection.versionOf(connection);
        }

        public boolean connected() {
            return connection != null;
        }
    }

    private record Key(UUID workspaceId, Tool tool) {}

    private final Map<Key, Known> entries = new ConcurrentHashMap<>();

    /** What the view holds, {@link Known#NOTHING} when it holds nothing for the workspace's tool. */
    public Known known(UUID workspaceId, Tool tool) {
        return entries.getOrDefault(new Key(workspaceId, tool), Known.NOTHING);
    }

    /**
     * Takes the connection a reply carries as the current one (null: none), as of the reply's workspace
     * version, unless the view already holds a newer answer.
     *
     * @return what the view holds afterwards (the reply's connection, or a newer one)
     */
    public Known adopt(UUID workspaceId, Tool tool, Reply reply) {
        long observedAt = reply.workspaceVersion() != null ? reply.workspaceVersion()
                : ToolConnection.versionOf(reply.connection());
        return adopt(workspaceId, tool, new Known(observedAt, reply.connection()));
    }

    /** Takes {@code answer} (a connection the stream confirmed) as the current one, unless the view holds a newer one. */
    public Known adopt(UUID workspaceId, Tool tool, Known answer) {
        if (entries.size() >= MAX_ENTRIES) {
            entries.clear();
        }
        return entries.merge(new Key(workspaceId, tool), answer,
                (held, offered) -> held.observedAt() > offered.observedAt() ? held : offered);
    }

    int size() {
        return entries.size();
    }
}
