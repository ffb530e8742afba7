package io.agentgateway.schemas;

/**
 * One per-connection classification rule of a chat, docs or internal_api connection: a proxied
 * request whose method and path match is evaluated as {@code action} at {@code risk}. The first
 * matching rule of the connection wins; a request no rule matches gets the safe defaults of DESIGN.md.
 * The decision stream validates rules when a connection is stored; the proxy matches them.
 *
 * @param method  an upper-case HTTP method ({@code GET}, {@code POST}, ...) or {@code *} for any
 * @param path    a path pattern starting with {@code /}: literal segments, {@code *} for exactly one
 *                segment, and {@code **} as the last segment for any number (zero included) of further ones
 * @param action  the action string the decision stream and the policies see, e.g. {@code message.send}
 * @param risk    the risk level the request is evaluated at
 */
public record ClassificationRule(String method, String path, String action, RiskLevel risk) {}
