package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Policy;

/** Create or replace the policy with {@code policy.id()}. */
public record UpsertPolicy(Policy policy) implements Command {}
