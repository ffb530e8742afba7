package io.agentgateway.webhooks;

import io.agentgateway.schemas.ToolConnection;
import java.util.UUID;

/**
 * A workspace whose connection may verify a delivery, with the copy of the connection it is verified
 * with: the read model's row (config, sealed webhook secret, version) or, when the connection view holds
 * a newer answer of the decision stream, that one. Its version is what {@code ReceiveWebhook} names.
 *
 * @param connection sealed; null when the stream said the workspace no longer has one
 */
record WebhookCandidate(UUID workspaceId, ToolConnection connection) {}
