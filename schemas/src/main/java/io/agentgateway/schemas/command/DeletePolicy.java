package io.agentgateway.schemas.command;

public record DeletePolicy(String policyId) implements Command {}
