package io.agentgateway.projector.readmodel;

import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.ToolConnection;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.AuditPayloadErased;
import io.agentgateway.schemas.event.DomainEvent;
import io.agentgateway.schemas.event.EventEnvelope;
import io.agentgateway.schemas.event.MemberRemoved;
import io.agentgateway.schemas.event.MemberSet;
import io.agentgateway.schemas.event.NotificationSettingsSet;
import io.agentgateway.schemas.event.PolicyDeleted;
import io.agentgateway.schemas.event.PolicyUpserted;
import io.agentgateway.schemas.event.ToolConnectionDeleted;
import io.agentgateway.schemas.event.ToolConnectionUpserted;
import io.agentgateway.schemas.event.WebhookSecretRotated;
import io.agentgateway.schemas.event.WorkspaceCreated;
import io.agentgateway.schemas.event.WorkspaceDefaultsSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * {@code admin_changes}: one immutable row per administrative event, with who made it (the envelope's actor) and a
 * one-line summary written here from the event. A summary never carries a secret: the events hold secrets sealed, and
 * a secret is only ever said to be set.
 */
final class AdminChangeWrites {
    private AdminChangeWrites() {}

    private static final SqlStatement INSERT = SqlStatement.appendOnly("""
            insert into admin_changes (event_id, workspace_id, occurred_at, area, subject, summary, actor_user_id, correlation_id)
            values (:event_id::uuid, :workspace_id::uuid, :occurred_at, :area, :subject, :summary, :actor_user_id, :correlation_id)
            on conflict (event_id) do nothing
            """);

    private record Change(String area, String subject, String summary) {}

    /** {@code writes} and, for an administrative event, its row. */
    static List<Write> with(EventEnvelope envelope, List<Write> writes) {
        Change change = changeOf(envelope.event());
        if (change == null) {
            return writes;
        }
        List<Write> all = new ArrayList<>(writes);
        all.add(new Write(INSERT, EnvelopeParams.of(envelope)
                .text("area", change.area())
                .text("subject", change.subject())
                .text("summary", change.summary())
                .source()));
        return List.copyOf(all);
    }

    // Java 17: an instanceof chain; events that are not administrative changes have no row
    private static Change changeOf(DomainEvent event) {
        if (event instanceof WorkspaceCreated e) {
            return new Change("workspace", null, "workspace \"" + e.name() + "\" created"
                    + (e.ownerUserId() == null ? "" : " with owner " + e.ownerUserId()));
        }
        if (event instanceof PolicyUpserted e) {
            var p = e.policy();
            return new Change("policy", p.id(), "policy \"" + p.name() + "\" saved: priority " + p.priority() + ", "
                    + (p.decision() == null ? "?" : p.decision().wire()) + (p.enabled() ? "" : ", disabled")
                    + (p.condition() == null ? "" : ", with a condition"));
        }
        if (event instanceof PolicyDeleted e) {
            return new Change("policy", e.policyId(), "policy " + e.policyId() + " deleted");
        }
        if (event instanceof WorkspaceDefaultsSet e) {
            List<String> parts = new ArrayList<>();
            if (e.decisions() != null && !e.decisions().isEmpty()) {
                parts.add(e.decisions().entrySet().stream().sorted(Map.Entry.comparingByKey())
                        .map(d -> wire(d.getKey()) + " " + wire(d.getValue())).collect(Collectors.joining(", ")));
            }
            if (e.approvalTtl() != null) {
                parts.add("approval TTL " + e.approvalTtl());
            }
            if (e.timeZone() != null) {
                parts.add("time zone " + e.timeZone());
            }
            return new Change("defaults", null, "defaults set: " + String.join("; ", parts));
        }
        if (event instanceof ApiKeyIssued e) {
            return new Change("api_key", e.keyId(), "API key \"" + e.name() + "\" issued: "
                    + (e.scopes() == null ? "" : e.scopes().stream().map(Scope::wire).sorted().collect(Collectors.joining(", ")))
                    + (e.expiresAt() == null ? "" : ", expires " + e.expiresAt()));
        }
        if (event instanceof ApiKeyRevoked e) {
            return new Change("api_key", e.keyId(), "API key " + e.keyId() + " revoked");
        }
        if (event instanceof MemberSet e) {
            return new Change("member", e.userId(), "member " + e.userId() + " set to " + (e.role() == null ? "?" : e.role().wire()));
        }
        if (event instanceof MemberRemoved e) {
            return new Change("member", e.userId(), "member " + e.userId() + " removed");
        }
        if (event instanceof NotificationSettingsSet e) {
            return new Change("notifications", null, "notification settings: email " + (e.emailEnabled() ? "on" : "off")
                    + ", chat webhook " + (e.chatConfigured() ? "set" : "none"));
        }
        if (event instanceof ToolConnectionUpserted e) {
            return new Change("tool", e.connection().tool().wire(), e.connection().tool().wire() + " connection saved"
                    + secrets(e.connection()));
        }
        if (event instanceof WebhookSecretRotated e) {
            return new Change("tool", e.connection().tool().wire(), e.connection().tool().wire() + " webhook secret rotated");
        }
        if (event instanceof ToolConnectionDeleted e) {
            return new Change("tool", e.tool().wire(), e.tool().wire() + " connection deleted");
        }
        if (event instanceof AuditPayloadErased e) {
            return new Change("audit", e.auditLogId(), "audit entry " + e.auditLogId() + ": payload erased"
                    + (e.reason() == null ? "" : " (" + e.reason() + ")"));
        }
        return null;
    }

    private static String secrets(ToolConnection connection) {
        return ": access token " + (connection.accessToken() != null ? "set" : "none")
                + ", webhook secret " + (connection.webhookSecret() != null ? "set" : "none");
    }

    private static String wire(RiskLevel level) {
        return level.wire();
    }

    private static String wire(Decision decision) {
        return decision.wire();
    }
}
