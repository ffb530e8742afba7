package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;

/**
 * Replace the webhook secret of an existing connection with one the ingress generated, showed to the
 * admin once and sealed.
 */
public record RotateWebhookSecret(Tool tool, SealedSecret webhookSecret) implements Command {}
