package io.agentgateway.console.admin;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.workspaces.Workspaces;
import io.agentgateway.httpedge.web.CorrelationIds;
import java.net.URI;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * The operators' page ({@code gateway.auth.operators}): every workspace, and a new one with its first owner
 * ({@link Workspaces}, which checks the operator itself). Nobody else sees it; an operator is no member of any workspace
 * by being one.
 */
@Component
public class WorkspacesPage {
    static final Map<String, String> INPUTS = Map.of("name", "name", "ownerUserId", "ownerUserId", "ownerEmail", "ownerEmail");
    static final int LIMIT = 500;

    private final AdminPages admin;
    private final Workspaces workspaces;

    WorkspacesPage(AdminPages admin, Workspaces workspaces) {
        this.admin = admin;
        this.workspaces = workspaces;
    }

    /** GET /workspaces */
    public Mono<ServerResponse> page(ServerRequest request) {
        return admin.requests.reader(request).flatMap(reader -> {
            requireOperator(reader);
            String created = request.queryParam("created").map(id -> ConsoleRequests.uuid(id).toString()).orElse(null);
            return model(reader, FormErrors.none(), typed(null)).map(model -> {
                model.put("created", created);
                return model;
            });
        }).flatMap(model -> admin.pages.page("workspaces", model)).onErrorResume(e -> admin.requests.failure(request, e));
    }

    /** POST /workspaces (name, ownerUserId, ownerEmail) */
    public Mono<ServerResponse> create(ServerRequest request) {
        return admin.requests.submission(request).flatMap(submitted -> {
            Reader reader = submitted.reader();
            requireOperator(reader);
            ObjectNode body = Forms.object();
            Forms.putText(body, "name", Forms.text(submitted.form(), "name"));
            Forms.putText(body, "ownerUserId", Forms.text(submitted.form(), "ownerUserId"));
            Forms.putText(body, "ownerEmail", Forms.text(submitted.form(), "ownerEmail"));
            return workspaces.create(reader.session().user(), body, CorrelationIds.of(request))
                    .flatMap(id -> ServerResponse.seeOther(URI.create("/workspaces?created=" + id)).build())
                    .onErrorResume(e -> FormErrors.of(e, INPUTS)
                            .map(errors -> model(reader, errors, typed(submitted.form()))
                                    .flatMap(model -> admin.pages.page(errors.status(), "workspaces", model)))
                            .orElseGet(() -> Mono.error(e)));
        }).onErrorResume(e -> admin.requests.failure(request, e));
    }

    private static void requireOperator(Reader reader) {
        if (!reader.operator()) {
            throw new ConsoleException(HttpStatus.FORBIDDEN, "Only the gateway's operators list and create workspaces.");
        }
    }

    private Mono<Map<String, Object>> model(Reader reader, FormErrors errors, Map<String, String> typed) {
        return workspaces.list(reader.session().user(), LIMIT).map(all -> {
            Map<String, Object> model = new HashMap<>();
            model.put("reader", reader);
            model.put("fmt", Formats.INSTANCE);
            model.put("section", "workspaces");
            model.put("all", all);
            model.put("errors", errors);
            model.put("typed", typed);
            model.put("created", null);
            return model;
        });
    }

    private static Map<String, String> typed(MultiValueMap<String, String> form) {
        Map<String, String> typed = new LinkedHashMap<>();
        for (String field : List.of("name", "ownerUserId", "ownerEmail")) {
            String value = form == null ? null : form.getFirst(field);
            typed.put(field, value == null ? "" : value);
        }
        return typed;
    }
}
