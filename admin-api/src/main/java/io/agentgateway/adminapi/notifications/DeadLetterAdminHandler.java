package io.agentgateway.adminapi.notifications;

import io.agentgateway.adminapi.shared.AdminAccess;
import io.agentgateway.adminapi.shared.ItemsResponse;
import io.agentgateway.httpedge.web.JsonResponses;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/v1/workspaces/{workspaceId}/dead-letters} and {@code POST .../dead-letters/{id}/redrive} (admin or
 * owner): the workspace's dead-lettered notifications and sending one again, once ({@link DeadLetters}).
 */
@Component
public class DeadLetterAdminHandler {
    private final AdminAccess access;
    private final DeadLetters deadLetters;

    DeadLetterAdminHandler(AdminAccess access, DeadLetters deadLetters) {
        this.access = access;
        this.deadLetters = deadLetters;
    }

    record Redriven(boolean ok, DeadLetters.DeadLetter deadLetter) {}

    public Mono<ServerResponse> list(ServerRequest request) {
        return access.admin(request)
                .flatMap(caller -> deadLetters.list(caller.user(), caller.workspaceId()))
                .flatMap(items -> JsonResponses.ok(ItemsResponse.of(items)));
    }

    public Mono<ServerResponse> redrive(ServerRequest request) {
        return access.caller(request)
                .flatMap(caller -> deadLetters.redrive(caller.user(), caller.workspaceId(),
                        request.pathVariable("deadLetterId")))
                .flatMap(letter -> JsonResponses.ok(new Redriven(true, letter)));
    }
}
