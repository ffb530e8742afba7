-- Inbound webhook deliveries (spec 2 "webhook event record", 6): one row per WebhookReceived event, i.e.
-- per workspace and (source, delivery id); a duplicate delivery never reaches the log a second time.
-- workspace_id is null for a delivery that matched no workspace (recorded under the nil-UUID key of the
-- commands topic), and such a row is never processed (spec 6 rule 3). decision and audit_log_id are set
-- when the delivery was evaluated against the workspace's policies.
--
-- payload_excerpt: the payload as compact JSON cut to the decision stream's audit excerpt limit
-- (gateway.decision.payload-excerpt-bytes, 4096 bytes by default; payload_truncated says whether it was
-- cut, payload_bytes is the whole size). Immutable rows keyed by the derived event id, no foreign key
-- (like audit_log), so a redelivered event is a no-op and the rows insert in bulk on a rebuild.
create table webhook_events (
    id                uuid primary key,
    event_id          uuid        not null,
    command_id        text        not null,
    source            text        not null check (source in ('code_host', 'issue_tracker')),
    delivery_id       text        not null,
    event_kind        text        not null,
    action            text        not null,
    workspace_id      uuid,
    processed         boolean     not null,
    decision          text        check (decision in ('allow', 'block', 'require_approval')),
    audit_log_id      uuid,
    received_at       timestamptz not null,
    payload_excerpt   text,
    payload_truncated boolean     not null default false,
    payload_bytes     integer,
    projected_at      timestamptz not null default now(),
    check (workspace_id is not null or not processed)
);
create index webhook_events_ws_time on webhook_events (workspace_id, received_at desc, id);
create index webhook_events_delivery on webhook_events (source, delivery_id);
