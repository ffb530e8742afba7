package io.agentgateway.toolproxy;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.agentgateway.httpedge.web.Blocking;
import java.time.Duration;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Whether a workspace has an enabled policy whose condition reads {@code target} (the read model's {@code policies},
 * kept {@link #FRESH} per workspace): only then does the proxy look up a fact a request does not carry, so that a
 * workspace without such conditions sends its upstream nothing more. Skipping is always on the safe side: a fact not
 * looked up is absent, and a condition reading it fails closed (a policy the read model does not show yet included).
 */
@Component
class TargetConditions {
    static final Duration FRESH = Duration.ofSeconds(2);

    private final JdbcClient jdbc;
    private final Cache<UUID, Boolean> byWorkspace = Caffeine.newBuilder().maximumSize(10_000).expireAfterWrite(FRESH).build();

    TargetConditions(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    Mono<Boolean> readTarget(UUID workspaceId) {
        Boolean known = byWorkspace.getIfPresent(workspaceId);
        if (known != null) {
            return Mono.just(known);
        }
        return Blocking.call(() -> jdbc.sql("""
                        select exists(select 1 from policies
                                       where workspace_id = :workspace and enabled and condition like '%target%')""")
                        .param("workspace", workspaceId)
                        .query(Boolean.class)
                        .single())
                .doOnNext(found -> byWorkspace.put(workspaceId, found))
                // the read model not answering: look up (the fact may be needed), never skip on an error
                .onErrorReturn(true);
    }
}
