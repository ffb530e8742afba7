package io.agentgateway.ingress.mcp;

import io.agentgateway.ingress.auth.ApiKeyCredential;

/** Who sent a gate request: the API key (well-formed; the stream or the read model says whether it is valid) and the agent. */
record McpCaller(ApiKeyCredential key, String agentId, String correlationId) {}
