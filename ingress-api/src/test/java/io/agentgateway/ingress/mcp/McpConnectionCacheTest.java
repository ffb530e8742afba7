package io.agentgateway.ingress.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.ingress.connection.ToolConnectionChangedHere;
import io.agentgateway.schemas.McpAuthType;
import io.agentgateway.schemas.McpTransport;
import io.agentgateway.schemas.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** When the cached mcp connection is served, and what makes the table be read again. */
class McpConnectionCacheTest {
    private static final UUID WORKSPACE = UUID.fromString("3e0c6a1f-9b2d-4c7e-8f5a-1d6b0e9c2a47");

    /** The projected row: its version is what the table holds now; every read is counted. */
    private final AtomicLong rowVersion = new AtomicLong(5);
    private final AtomicInteger reads = new AtomicInteger();
    private final McpUpstreams table = new McpUpstreams(null) {
        @Override
        Mono<McpUpstream> of(UUID workspaceId) {
            reads.incrementAndGet();
            return Mono.just(new McpUpstream(workspaceId, rowVersion.get(), "http://mcp.example/mcp", McpTransport.HTTP,
                    McpAuthType.BEARER, null));
        }
    };
    private final McpConnectionCache cache = new McpConnectionCache(table, Duration.ofMinutes(5),
            Clock.fixed(Instant.parse("2026-11-24T03:00:00Z"), ZoneOffset.UTC));

    @Test
    void nothing_is_kept_until_the_change_listener_is_positioned() {
        assertThat(versionServed()).isEqualTo(5);
        assertThat(versionServed()).isEqualTo(5);
        assertThat(reads).hasValue(2);

        cache.listening(true);
        versionServed();
        versionServed();
        assertThat(reads).hasValue(3);
    }

    @Test
    void a_change_seen_on_the_log_drops_the_entry_and_a_lagging_row_is_not_kept() {
        cache.listening(true);
        versionServed();

        cache.changed(WORKSPACE, Tool.MCP, 6);
        cache.changed(WORKSPACE, Tool.CODE_HOST, 7);
        assertThat(versionServed()).as("the projector has not written version 6 yet").isEqualTo(5);
        assertThat(versionServed()).isEqualTo(5);
        assertThat(reads).hasValue(3);

        rowVersion.set(6);
        assertThat(versionServed()).isEqualTo(6);
        assertThat(versionServed()).isEqualTo(6);
        assertThat(reads).hasValue(4);
    }

    @Test
    void a_change_made_through_this_instance_drops_the_entry_before_the_log_says_so() {
        cache.listening(true);
        versionServed();

        rowVersion.set(6);
        cache.changedHere(new ToolConnectionChangedHere(WORKSPACE, Tool.MCP));

        assertThat(versionServed()).isEqualTo(6);
        assertThat(reads).hasValue(2);
    }

    @Test
    void a_change_to_another_tool_keeps_the_entry() {
        cache.listening(true);
        versionServed();

        cache.changedHere(new ToolConnectionChangedHere(WORKSPACE, Tool.CHAT));

        versionServed();
        assertThat(reads).hasValue(1);
    }

    private long versionServed() {
        return cache.of(WORKSPACE).block().version();
    }
}
