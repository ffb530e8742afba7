package io.agentgateway.adminapi.notifications;

import io.agentgateway.httpedge.web.IngressTables;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * The dead letters sent again, in the admin API's table {@code ingress.notification_redrives} ({@link IngressTables}):
 * one row per dead-letter record, claimed before it is written to the notifications topic again, so that a second
 * press says who sent it again and when instead of writing it again. Blocking: call off the event loop.
 */
@Repository
class NotificationRedrives {
    /** Who sent a dead letter again, and when. */
    record Redrive(Instant at, String by) {}

    private final JdbcClient jdbc;
    private final IngressTables tables;

    NotificationRedrives(JdbcClient jdbc, IngressTables tables) {
        this.jdbc = jdbc;
        this.tables = tables;
    }

    /** @return true when this call claimed the record, false when it was sent again before */
    boolean claim(UUID workspaceId, String position, String userId, Instant at) {
        tables.ready();
        return jdbc.sql("""
                        insert into ingress.notification_redrives (workspace_id, position, notification_id, redriven_by, redriven_at)
                        values (:workspace, :position, '', :by, :at) on conflict do nothing""")
                .param("workspace", workspaceId).param("position", position).param("by", userId)
                .param("at", Timestamp.from(at)).update() == 1;
    }

    /** The claim given back: the record was not written (no such dead letter, Kafka unavailable). */
    void release(UUID workspaceId, String position) {
        jdbc.sql("delete from ingress.notification_redrives where workspace_id = :workspace and position = :position")
                .param("workspace", workspaceId).param("position", position).update();
    }

    /** The claim completed with the notification it sent again. */
    void sent(UUID workspaceId, String position, String notificationId) {
        jdbc.sql("update ingress.notification_redrives set notification_id = :id where workspace_id = :workspace and position = :position")
                .param("id", notificationId).param("workspace", workspaceId).param("position", position).update();
    }

    /** By the dead-letter record's position. */
    Map<String, Redrive> of(UUID workspaceId) {
        tables.ready();
        Map<String, Redrive> redrives = new HashMap<>();
        jdbc.sql("select position, redriven_at, redriven_by from ingress.notification_redrives where workspace_id = :workspace")
                .param("workspace", workspaceId)
                .query(rs -> {
                    redrives.put(rs.getString(1), new Redrive(rs.getTimestamp(2).toInstant(), rs.getString(3)));
                });
        return redrives;
    }
}
