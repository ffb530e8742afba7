package io.agentgateway.launcher;

import java.util.List;
import java.util.Map;

/** Creates a workspace and an API key through the admin API, as an owner would. */
public final class WorkspaceBootstrap {

    /** The new workspace and the key, which the API shows only this once. */
    public record CreatedWorkspace(String workspaceId, String apiKey, String keyId) {}

    private WorkspaceBootstrap() {}

    public static CreatedWorkspace create(GatewayHttpClient client, String ownerJwt, String name, List<String> scopes) {
        var created = client.send("POST", "/admin/v1/workspaces", ownerJwt, Map.of("name", name));
        if (created.status() != 201) {
            throw new IllegalStateException("workspace not created: " + created.status() + " " + created.rawBody());
        }
        String workspaceId = created.text("workspaceId");
        var key = client.send("POST", "/admin/v1/workspaces/" + workspaceId + "/api-keys", ownerJwt,
                Map.of("name", name + " agent", "scopes", scopes));
        if (key.status() != 201) {
            throw new IllegalStateException("API key not issued: " + key.status() + " " + key.rawBody());
        }
        return new CreatedWorkspace(workspaceId, key.text("key"), key.text("keyId"));
    }
}
