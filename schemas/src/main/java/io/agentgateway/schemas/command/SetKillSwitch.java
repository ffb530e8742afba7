package io.agentgateway.schemas.command;

import io.agentgateway.schemas.KillSwitchAction;
import io.agentgateway.schemas.Tool;

/** Spec 4.2. {@code tool} is required for pause_tool / resume_tool and ignored otherwise. */
public record SetKillSwitch(KillSwitchAction action, Tool tool) implements Command {}
