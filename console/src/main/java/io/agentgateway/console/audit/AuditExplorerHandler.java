package io.agentgateway.console.audit;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsolePages;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Formats;
import io.agentgateway.console.web.Membership;
import io.agentgateway.console.web.Reader;
import io.agentgateway.adminapi.audit.AuditExports;
import io.agentgateway.adminapi.audit.AuditLog;
import io.agentgateway.adminapi.audit.AuditLogQuery;
import io.agentgateway.adminapi.audit.AuditPage;
import io.agentgateway.adminapi.export.AuditExportFilter;
import io.agentgateway.adminapi.export.AuditExportFormat;
import io.agentgateway.schemas.ActionSource;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The audit explorer: the admin API's audit query ({@link AuditLogQuery}, {@link AuditLog}: the same
 * server-side filters, 400 texts and keyset pages) for one workspace the user may read, as a page whose URL is the
 * filter (a deep link keeps it), a live tail of the first page, and the admin API's export of what is filtered.
 */
@Component
public class AuditExplorerHandler {
    /** The filters a link carries, in the order the form shows them. */
    static final List<String> FILTERS = List.of("from", "to", "agentId", "tool", "action", "decision", "risk", "source",
            "correlationId", "undelivered");

    private final ConsoleRequests requests;
    private final ConsolePages pages;
    private final AuditLog audit;
    private final AuditExports export;

    AuditExplorerHandler(ConsoleRequests requests, ConsolePages pages, AuditLog audit, AuditExports export) {
        this.requests = requests;
        this.pages = pages;
        this.audit = audit;
        this.export = export;
    }

    /** GET /audit?workspace=…&filters…&cursor=… */
    public Mono<ServerResponse> page(ServerRequest request) {
        return load(request).flatMap(model -> pages.page("audit", model)).onErrorResume(e -> requests.failure(request, e));
    }

    /** GET /audit/rows?…: the table alone, for the live tail. */
    public Mono<ServerResponse> rows(ServerRequest request) {
        return load(request)
                .map(model -> pages.render("audit :: rows", model))
                .flatMap(html -> ServerResponse.ok().contentType(ConsolePages.HTML).header("Cache-Control", "no-store")
                        .bodyValue(html))
                .onErrorResume(e -> requests.failure(request, e));
    }

    /** GET /audit/export?workspace=…&format=csv|jsonl&filters…: the rows filtered (the last 30 days unless a range is given). */
    public Mono<ServerResponse> export(ServerRequest request) {
        return requests.reader(request).flatMap(reader -> {
            Membership member = workspace(request, reader);
            AuditLogQuery query = AuditLogQuery.from(request);
            AuditExportFormat format = AuditExportFormat.parse(request.queryParam("format").orElse("csv"))
                    .orElseThrow(() -> ConsoleException.badRequest("format must be csv or jsonl"));
            Instant to = query.to() != null ? query.to() : Instant.now();
            Instant from = query.from() != null ? query.from() : to.minus(Duration.ofDays(30));
            if (!from.isBefore(to)) {
                throw ConsoleException.badRequest("from must be before to");
            }
            return export.download(request, new AuditExportFilter(member.workspaceId(), from, to, query.correlationId(),
                    query.agentId(), query.tool(), query.decision(), query.action(), query.riskLevel(), query.source(),
                    query.undelivered()), format);
        }).onErrorResume(e -> requests.failure(request, e));
    }

    private Mono<Map<String, Object>> load(ServerRequest request) {
        return requests.reader(request).flatMap(reader -> {
            Membership member = workspace(request, reader);
            AuditLogQuery query = AuditLogQuery.from(request);
            return audit.page(member.workspaceId(), query).map(page -> model(request, reader, member, query, page));
        });
    }

    /** The workspace of the {@code workspace} parameter (the user's first when absent); another one is 404. */
    private static Membership workspace(ServerRequest request, Reader reader) {
        String given = request.queryParam("workspace").filter(w -> !w.isEmpty()).orElse(null);
        if (given == null) {
            return reader.memberships().stream().findFirst().orElseThrow(ConsoleException::notFound);
        }
        UUID id = ConsoleRequests.uuid(given);
        return reader.membership(id).orElseThrow(ConsoleException::notFound);
    }

    private Map<String, Object> model(ServerRequest request, Reader reader, Membership member, AuditLogQuery query,
                                      AuditPage page) {
        Map<String, String> filters = new LinkedHashMap<>();
        FILTERS.forEach(name -> request.queryParam(name).filter(v -> !v.isEmpty()).ifPresent(v -> filters.put(name, v)));
        String base = "/audit?workspace=" + member.workspaceId() + query(filters);
        Map<String, Object> model = new HashMap<>();
        model.put("reader", reader);
        model.put("fmt", Formats.INSTANCE);
        model.put("workspaces", reader.memberships());
        model.put("member", member);
        model.put("filters", filters);
        model.put("rows", page.items());
        model.put("firstPage", query.cursor() == null);
        model.put("self", base + request.queryParam("cursor").map(c -> "&cursor=" + enc(c)).orElse(""));
        model.put("first", base);
        model.put("next", page.next() == null ? null : base + "&cursor=" + enc(page.next().encode()));
        model.put("rowsUrl", "/audit/rows?workspace=" + member.workspaceId() + query(filters));
        model.put("exportCsv", "/audit/export?workspace=" + member.workspaceId() + "&format=csv" + query(filters));
        model.put("exportJsonl", "/audit/export?workspace=" + member.workspaceId() + "&format=jsonl" + query(filters));
        model.put("tools", Arrays.stream(Tool.values()).map(Tool::wire).toList());
        model.put("decisions", Arrays.stream(Decision.values()).map(Decision::wire).toList());
        model.put("risks", Arrays.stream(RiskLevel.values()).map(RiskLevel::wire).toList());
        model.put("sources", Arrays.stream(ActionSource.values()).map(ActionSource::wire).toList());
        Instant now = Instant.now();
        model.put("lastHour", "/audit?workspace=" + member.workspaceId() + "&from=" + now.minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS));
        model.put("lastDay", "/audit?workspace=" + member.workspaceId() + "&from=" + now.minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.SECONDS));
        model.put("section", "audit");
        return model;
    }

    private static String query(Map<String, String> filters) {
        StringBuilder q = new StringBuilder();
        filters.forEach((k, v) -> q.append('&').append(k).append('=').append(enc(v)));
        return q.toString();
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
