package io.agentgateway.console.audit;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.adminapi.audit.AuditLog;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * One audit row: {@code /audit/<workspace>/<audit log id>}, the link a back-test's changed decisions carry. Everything
 * in it is text on the page; for an admin, a link to test a draft policy against this recorded action.
 */
@Component
public class AuditRowHandler {
    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final AuditLog audit;

    AuditRowHandler(ConsoleRequests requests, ConsolePages pages, AuditLog audit) {
        this.requests = requests;
        this.pages = pages;
        this.audit = audit;
    }

    /** GET /audit/{workspaceId}/{auditLogId} */
    public Mono<ServerResponse> page(ServerRequest request) {
        return requests.reader(request).flatMap(reader -> {
            UUID workspaceId = ConsoleRequests.uuid(request.pathVariable("workspaceId"));
            UUID auditLogId = ConsoleRequests.uuid(request.pathVariable("auditLogId"));
            Membership member = reader.membership(workspaceId).orElseThrow(ConsoleException::notFound);
            return audit.find(workspaceId, auditLogId).onErrorMap(ConsoleException::notFoundOf).map(row -> {
                Map<String, Object> model = new HashMap<>();
                model.put("reader", reader);
                model.put("fmt", Formats.INSTANCE);
                model.put("member", member);
                model.put("row", row);
                model.put("section", "audit");
                return model;
            });
        }).flatMap(model -> pages.page("auditrow", model)).onErrorResume(e -> requests.failure(request, e));
    }
}
