package io.agentgateway.ingress.connection;

import io.agentgateway.schemas.Tool;
import java.util.UUID;

/**
 * A cache of tool connections (or of what is derived from them) that the
 * {@link ToolConnectionChangeListener} keeps honest: it is told of every change to any workspace's
 * connection that the events topic carries, and whether it is being told at all. A cache must not
 * serve what it kept while {@link #listening} is false: a change could have gone by unseen.
 */
public interface ToolConnectionChangeObserver {

    /** The workspace's connection to the tool was written, rotated or deleted by the event of this workspace version. */
    void changed(UUID workspaceId, Tool tool, long workspaceVersion);

    /** Whether changes are being seen from here on; either way, what was kept so far is no longer trusted. */
    void listening(boolean listening);

    /** A change may have gone by unseen (an unreadable event): nothing kept so far is trusted. */
    void forgetAll();
}
