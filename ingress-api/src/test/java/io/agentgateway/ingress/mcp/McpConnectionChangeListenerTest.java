package io.agentgateway.ingress.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;

/** Which events-topic records reach the cache: by the event-type header, or by the bytes of a record without one. */
class McpConnectionChangeListenerTest {
    private static final UUID WORKSPACE = UUID.fromString("7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37");

    private final List<Long> changedVersions = new ArrayList<>();
    private final McpConnectionChangeListener listener = new McpConnectionChangeListener(
            new McpConnectionCache(null, Duration.ZERO, Clock.systemUTC()) {
                @Override
                void changed(UUID workspaceId, long workspaceVersion) {
                    changedVersions.add(workspaceVersion);
                }
            });

    @Test
    void a_deleted_mcp_connection_is_seen_with_its_header_and_without_one() {
        ToolConnectionDeleted deleted = new ToolConnectionDeleted(Tool.MCP);

        listener.onMessage(record(envelope(deleted, 7), EventTypeHeader.of(deleted)));
        listener.onMessage(record(envelope(deleted, 8), new RecordHeaders()));

        assertThat(changedVersions).containsExactly(7L, 8L);
    }

    @Test
    void a_header_naming_another_type_is_not_parsed_whatever_the_value_says() {
        // the value would be an mcp change, but the header is what decides (never read: not parsed)
        ToolConnectionDeleted deleted = new ToolConnectionDeleted(Tool.MCP);
        Headers other = new RecordHeaders().add(EventTypeHeader.NAME, "action_evaluated".getBytes(StandardCharsets.UTF_8));

        listener.onMessage(record(envelope(deleted, 9), other));

        assertThat(changedVersions).isEmpty();
    }

    @Test
    void other_tools_do_not_touch_the_cache() {
        ToolConnectionDeleted chat = new ToolConnectionDeleted(Tool.CHAT);

        listener.onMessage(record(envelope(chat, 10), EventTypeHeader.of(chat)));

        assertThat(changedVersions).isEmpty();
    }

    private static byte[] envelope(DomainEvent event, long workspaceVersion) {
        EventEnvelope envelope = new EventEnvelope(EventEnvelope.CURRENT_VERSION, UUID.randomUUID().toString(),
                WORKSPACE.toString(), UUID.randomUUID().toString(), UUID.randomUUID().toString(),
                Instant.parse("2026-11-24T01:00:00Z"), Actor.user("owner", "owner@example.com"), workspaceVersion, 1, event);
        return GatewayJson.MAPPER.writeValueAsBytes(envelope);
    }

    private static ConsumerRecord<String, byte[]> record(byte[] value, Headers headers) {
        return new ConsumerRecord<>(Topics.EVENTS.name(), 0, 0L, 0L, TimestampType.CREATE_TIME, 36, value.length,
                WORKSPACE.toString(), value, headers, Optional.empty());
    }
}
