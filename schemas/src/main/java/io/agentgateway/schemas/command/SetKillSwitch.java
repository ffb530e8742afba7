package io.agentgateway.schemas.command;

import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;

/**
 * Spec 4.2. {@code tool} is required for pause_tool / resume_tool and ignored otherwise. {@code reason}: why the
 * caller pressed it (optional; the console always sends one), kept with the change so that the workspace's state can
 * say who turned the switch on, when and why.
 */
public record SetKillSwitch(KillSwitchAction action, Tool tool, String reason) implements Command {

    public SetKillSwitch(KillSwitchAction action, Tool tool) {
        this(action, tool, null);
    }
}
