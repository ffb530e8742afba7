package io.agentgateway.schemas.command;

/** Create the envelope's workspace with the issuing user as its owner. Refused if it exists. */
public record CreateWorkspace(String name) implements Command {}
