package io.agentgateway.adminapi.policies;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.httpedge.web.CorrelationIds;
import io.agentgateway.httpedge.web.JsonBodyReader;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code POST /admin/v1/workspaces/{workspaceId}/policy-tests} (admin or owner): the HTTP side of {@link PolicyTests}
 * (docs/policies.md, "Testing a policy").
 */
@Component
public class PolicyTestHandler {
    private final AdminAccess access;
    private final JsonBodyReader bodies;
    private final PolicyTests tests;

    PolicyTestHandler(AdminAccess access, JsonBodyReader bodies, PolicyTests tests) {
        this.access = access;
        this.bodies = bodies;
        this.tests = tests;
    }

    public Mono<ServerResponse> test(ServerRequest request) {
        return access.admin(request).flatMap(admin -> bodies.readObject(request)
                        .flatMap(body -> tests.test(admin.workspaceId(), body, CorrelationIds.of(request))))
                .flatMap(JsonResponses::ok);
    }
}
