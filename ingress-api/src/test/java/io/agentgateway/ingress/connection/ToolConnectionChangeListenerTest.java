package io.agentgateway.ingress.connection;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.GatewayJson;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.ToolConnectionConfig;
import io.agentgateway.schemas.Topics;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.EventTypeHeader;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import java.nio.charset.StandardCharsets;
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

/** Which events-topic records reach the caches: by the event-type header, or by the bytes of a record without one. */
class ToolConnectionChangeListenerTest {
    private static final UUID WORKSPACE = UUID.fromString("7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37");

    private final List<String> changes = new ArrayList<>();
    private final ToolConnectionChangeListener listener = new ToolConnectionChangeListener(List.of(new ToolConnectionChangeObserver() {
        @Override
        public void changed(UUID workspaceId, Tool tool, long workspaceVersion) {
            changes.add(tool.wire() + "@" + workspaceVersion);
        }

        @Override
        public void listening(boolean listening) {
            changes.add("listening " + listening);
        }

        @Override
        public void forgetAll() {
            changes.add("forget all");
        }
    }));

    @Test
    void a_connection_change_is_seen_with_its_header_and_without_one() {
        ToolConnectionDeleted deleted = new ToolConnectionDeleted(Tool.MCP);
        ToolConnectionUpserted upserted = new ToolConnectionUpserted(connection(Tool.CODE_HOST));
        WebhookSecretRotated rotated = new WebhookSecretRotated(connection(Tool.ISSUE_TRACKER));

        listener.onMessage(record(envelope(deleted, 7), EventTypeHeader.of(deleted)));
        listener.onMessage(record(envelope(deleted, 8), new RecordHeaders()));
        listener.onMessage(record(envelope(upserted, 9), EventTypeHeader.of(upserted)));
        listener.onMessage(record(envelope(rotated, 10), new RecordHeaders()));

        assertThat(changes).containsExactly("mcp@7", "mcp@8", "code_host@9", "issue_tracker@10");
    }

    @Test
    void a_header_naming_another_type_is_not_parsed_whatever_the_value_says() {
        // the value would be a connection change, but the header is what decides (never read: not parsed)
        ToolConnectionDeleted deleted = new ToolConnectionDeleted(Tool.MCP);
        Headers other = new RecordHeaders().add(EventTypeHeader.NAME, "action_evaluated".getBytes(StandardCharsets.UTF_8));

        listener.onMessage(record(envelope(deleted, 9), other));

        assertThat(changes).isEmpty();
    }

    @Test
    void an_unreadable_record_that_may_be_a_change_drops_everything_kept() {
        byte[] garbage = "{\"type\":\"tool_connection_deleted\", not json".getBytes(StandardCharsets.UTF_8);

        listener.onMessage(record(garbage, new RecordHeaders()));

        assertThat(changes).containsExactly("forget all");
    }

    private static ToolConnection connection(Tool tool) {
        return new ToolConnection(tool, ToolConnectionConfig.none(), null, null, null, null, null, null);
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
