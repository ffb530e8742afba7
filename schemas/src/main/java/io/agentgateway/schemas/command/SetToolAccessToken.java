package io.agentgateway.schemas.command;

import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.secret.SealedSecret;

/**
 * Stores a token obtained by OAuth as the access token of the workspace's connection to {@code tool}
 * (an admin's command: the admin who started the flow). Only the token changes; a workspace without
 * that connection gets one with nothing else set. Unlike {@link UpsertToolConnection}, the sender
 * need not know (and so cannot overwrite) the connection's other fields.
 *
 * @param accessToken sealed with SecretBox
 */
public record SetToolAccessToken(Tool tool, SealedSecret accessToken) implements Command {}
