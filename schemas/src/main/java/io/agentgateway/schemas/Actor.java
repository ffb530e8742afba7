package io.agentgateway.schemas;

/**
 * Who issued a command. The decision stream authorizes against its own state, so the actor carries
 * only identity: a user (from a verified JWT) or an API key (as its SHA-256 hash, never the key).
 */
public record Actor(ActorKind kind, String userId, String email, String apiKeyHash, String agentId) {

    public static Actor user(String userId, String email) {
        return new Actor(ActorKind.USER, userId, email, null, null);
    }

    public static Actor apiKey(String apiKeyHash, String agentId) {
        return new Actor(ActorKind.API_KEY, null, null, apiKeyHash, agentId);
    }

    public static Actor system(String name) {
        return new Actor(ActorKind.SYSTEM, name, null, null, null);
    }
}
