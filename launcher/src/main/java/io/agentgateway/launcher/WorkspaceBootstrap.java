package io.agentgateway.launcher;

import com.nimbusds.jwt.SignedJWT;
import java.text.ParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates a workspace through the admin API as an operator (workspace creation is theirs), with a
 * named first owner, and has that owner issue an API key.
 */
public final class WorkspaceBootstrap {

    /** The new workspace and the key, which the API shows only this once. */
    public record CreatedWorkspace(String workspaceId, String apiKey, String keyId) {}

    private WorkspaceBootstrap() {}

    /** @param ownerJwt the owner's token: its {@code sub} and {@code email} name the first owner, and it issues the key */
    public static CreatedWorkspace create(GatewayHttpClient client, String operatorJwt, String ownerJwt, String name,
                                          List<String> scopes) {
        String workspaceId = createWorkspace(client, operatorJwt, name, subject(ownerJwt), claim(ownerJwt, "email"));
        var key = client.send("POST", "/admin/v1/workspaces/" + workspaceId + "/api-keys", ownerJwt,
                Map.of("name", name + " agent", "scopes", scopes));
        if (key.status() != 201) {
            throw new IllegalStateException("API key not issued: " + key.status() + " " + key.rawBody());
        }
        return new CreatedWorkspace(workspaceId, key.text("key"), key.text("keyId"));
    }

    /** Creates the workspace as the operator, owned by {@code ownerUserId}; returns its id. */
    public static String createWorkspace(GatewayHttpClient client, String operatorJwt, String name, String ownerUserId,
                                         String ownerEmail) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("name", name);
        body.put("ownerUserId", ownerUserId);
        if (ownerEmail != null) {
            body.put("ownerEmail", ownerEmail);
        }
        var created = client.send("POST", "/admin/v1/workspaces", operatorJwt, body);
        if (created.status() != 201) {
            throw new IllegalStateException("workspace not created: " + created.status() + " " + created.rawBody());
        }
        return created.text("workspaceId");
    }

    static String subject(String jwt) {
        String sub = claim(jwt, "sub");
        if (sub == null) {
            throw new IllegalArgumentException("the owner's JWT has no sub");
        }
        return sub;
    }

    private static String claim(String jwt, String name) {
        try {
            Object value = SignedJWT.parse(jwt).getJWTClaimsSet().getClaim(name);
            return value == null ? null : value.toString();
        } catch (ParseException e) {
            throw new IllegalArgumentException("not a JWT", e);
        }
    }
}
