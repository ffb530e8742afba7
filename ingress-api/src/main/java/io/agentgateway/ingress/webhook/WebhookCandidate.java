package io.agentgateway.ingress.webhook;

import io.agentgateway.schemas.secret.SealedSecret;
import java.util.UUID;

/** A connection whose config matches a delivery's payload: its workspace and its (still sealed) webhook secret. */
record WebhookCandidate(UUID workspaceId, SealedSecret webhookSecret) {}
