package io.agentgateway.console.live;

import io.agentgateway.console.web.ConsoleException;
import io.agentgateway.console.web.ConsoleRequests;
import io.agentgateway.console.web.Reader;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * GET /events: the signed-in user's live feed (Server-Sent Events) for the workspaces they may read, or the one named
 * by {@code ?workspace=}: an event per kind of change ({@code approvals}, {@code audit}, {@code kill-switch}), without
 * data (the page fetches what it shows, authorized as any other request), at most four a second per kind, and a
 * {@code live} heartbeat every few seconds whose data says whether the feed is healthy ({@code ok}, {@code starting},
 * {@code stale});
 * the page says "not live" when the heartbeat stops or says stale.
 */
@Component
public class LiveHandler {
    static final Duration HEARTBEAT = Duration.ofSeconds(1);
    static final Duration COALESCE = Duration.ofMillis(250);
    static final Duration STREAM_LIFETIME = Duration.ofMinutes(10);

    private final ConsoleRequests requests;
    private final EventFeed feed;

    LiveHandler(ConsoleRequests requests, EventFeed feed) {
        this.requests = requests;
        this.feed = feed;
    }

    public Mono<ServerResponse> events(ServerRequest request) {
        return requests.reader(request).flatMap(reader -> {
            List<UUID> workspaces = watched(request, reader);
            Flux<ServerSentEvent<String>> changes = Flux.merge(workspaces.stream().map(feed::changes).toList())
                    .groupBy(topic -> topic)
                    .flatMap(group -> group.sample(COALESCE))
                    .map(topic -> ServerSentEvent.<String>builder().event(topic.eventName()).data(topic.eventName()).build());
            Flux<ServerSentEvent<String>> heartbeat = Flux.interval(Duration.ZERO, HEARTBEAT)
                    .map(tick -> ServerSentEvent.<String>builder().event("live").data(feed.state()).build());
            return ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM).header("Cache-Control", "no-store")
                    .header("X-Accel-Buffering", "no")
                    // a stream ends after a while and the browser reconnects: its membership is then checked anew
                    .body(BodyInserters.fromServerSentEvents(Flux.merge(heartbeat, changes).take(STREAM_LIFETIME)));
        }).onErrorResume(e -> requests.failure(request, e));
    }

    private static List<UUID> watched(ServerRequest request, Reader reader) {
        return request.queryParam("workspace").filter(w -> !w.isEmpty())
                .map(w -> reader.membership(ConsoleRequests.uuid(w)).map(m -> List.of(m.workspaceId()))
                        .orElseThrow(ConsoleException::notFound))
                .orElse(reader.workspaceIds());
    }
}
