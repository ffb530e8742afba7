package io.agentgateway.console.approvals;

import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Reader;
import io.agentgateway.httpedge.web.Blocking;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The approvals inbox: pending approvals of every workspace the user may read, soonest expiry first, each with what
 * will run; the list is fetched again (htmx) whenever the live feed says an approval of one of them changed.
 */
@Component
public class InboxHandler {
    static final int PAGE = 50;

    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final ApprovalQueries approvals;

    InboxHandler(ConsoleRequests requests, ConsolePages pages, ApprovalQueries approvals) {
        this.requests = requests;
        this.pages = pages;
        this.approvals = approvals;
    }

    /** GET /: the inbox page. */
    public Mono<ServerResponse> page(ServerRequest request) {
        return requests.reader(request)
                .flatMap(reader -> Blocking.call(() -> model(reader)))
                .flatMap(model -> pages.page("inbox", model))
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** GET /inbox/items: the list alone (what the live updates swap in). */
    public Mono<ServerResponse> items(ServerRequest request) {
        return requests.reader(request)
                .flatMap(reader -> Blocking.call(() -> model(reader)))
                .map(model -> pages.render("inbox :: items", model))
                .flatMap(html -> ServerResponse.ok().contentType(ConsolePages.HTML).header("Cache-Control", "no-store")
                        .bodyValue(html))
                .onErrorResume(e -> requests.failure(request, e));
    }

    private Map<String, Object> model(Reader reader) {
        ApprovalQueries.Inbox inbox = approvals.inbox(reader.workspaceIds(), PAGE);
        Map<UUID, Boolean> mayReview = new HashMap<>();
        reader.memberships().forEach(m -> mayReview.put(m.workspaceId(), m.mayReview()));
        Map<String, Object> model = new HashMap<>();
        model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
        model.put("items", inbox.items());
        model.put("total", inbox.total());
        model.put("shown", inbox.items().size());
        model.put("mayReview", mayReview);
        model.put("now", Instant.now());
        model.put("workspaces", reader.memberships());
        model.put("section", "inbox");
        return model;
    }

}
