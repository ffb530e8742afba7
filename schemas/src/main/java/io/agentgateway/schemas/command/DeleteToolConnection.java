package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Tool;

/** Remove the workspace's connection to {@code tool}, its secrets with it. The tool's pause flag is the kill switch's. */
public record DeleteToolConnection(Tool tool) implements Command {}
