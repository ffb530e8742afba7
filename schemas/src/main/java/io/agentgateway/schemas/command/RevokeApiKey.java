package io.agentgateway.schemas.command;

public record RevokeApiKey(String keyId) implements Command {}
