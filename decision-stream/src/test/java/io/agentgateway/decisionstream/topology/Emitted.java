package io.agentgateway.decisionstream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.command.EvaluationOutcome;
import io.agentgateway.schemas.command.Reply;
import io.agentgateway.schemas.DerivedIds;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.LimitReached;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;

/** Everything one command emitted, with the assertions the tests keep making. */
public record Emitted(List<Reply> replies, List<EventEnvelope> events, List<NotificationRequested> notifications) {

    /** The one reply (there must be exactly one). */
    public Reply reply() {
        assertThat(replies).as("replies").hasSize(1);
        return replies.get(0);
    }

    public EvaluationOutcome evaluation() {
        Reply reply = reply();
        assertThat(reply.status()).as("reply status (error: %s)", reply.error()).isEqualTo(ReplyStatus.OK);
        assertThat(reply.evaluation()).isNotNull();
        return reply.evaluation();
    }

    /** Asserts a refusal: the reply says why, and nothing else was emitted. */
    public Reply refused(ReplyStatus status, String error) {
        Reply reply = reply();
        assertThat(reply.status()).isEqualTo(status);
        assertThat(reply.error()).isEqualTo(error);
        assertThat(reply.evaluation()).isNull();
        assertNothingButTheReply();
        return reply;
    }

    public void assertNothingButTheReply() {
        assertThat(events).as("events").isEmpty();
        assertThat(notifications).as("notifications").isEmpty();
    }

    public void assertNothing() {
        assertThat(replies).as("replies").isEmpty();
        assertNothingButTheReply();
    }

    public Reply ok() {
        Reply reply = reply();
        assertThat(reply.status()).as("reply status (error: %s)", reply.error()).isEqualTo(ReplyStatus.OK);
        return reply;
    }

    public List<DomainEvent> domainEvents() {
        return events.stream().map(EventEnvelope::event).toList();
    }

    /** The one event, which must be of {@code type}. */
    public <T extends DomainEvent> T only(Class<T> type) {
        assertThat(events).as("events").hasSize(1);
        return event(0, type);
    }

    public <T extends DomainEvent> T event(int index, Class<T> type) {
        assertThat(events.size()).as("events").isGreaterThan(index);
        assertThat(events.get(index).event()).isInstanceOf(type);
        return type.cast(events.get(index).event());
    }

    public NotificationRequested notification() {
        assertThat(notifications).as("notifications").hasSize(1);
        return notifications.get(0);
    }

    /** Asserts a refusal at a workspace limit: the reply {@code limited} and its audit entry, nothing else. */
    public LimitReached limited(String limit) {
        Reply reply = reply();
        assertThat(reply.status()).isEqualTo(ReplyStatus.LIMITED);
        assertThat(reply.evaluation()).isNull();
        assertThat(notifications).as("notifications").isEmpty();
        LimitReached audit = only(LimitReached.class);
        assertThat(audit.limit()).isEqualTo(limit);
        assertThat(audit.message()).isEqualTo(reply.error());
        assertThat(audit.auditLogId()).isEqualTo(DerivedIds.auditLogId(reply.commandId()));
        return audit;
    }
}
