-- Dead-lettered notifications sent again from the console or the admin API: one row per dead-letter record (its
-- position on gateway.notifications.dlt.v1, <partition>-<offset>), claimed before it is written to the notifications
-- topic again, so that one dead letter is sent again once, by whom and when. The notifier's delivery ledger is what
-- keeps a channel that went out from going out twice; this only stops a second press of the button from writing the
-- record again. A notification that fails again is dead-lettered anew: a new record, a new row. (V4 of the shared
-- ingress.flyway_schema_history, before each module migrated its own.)
create table notification_redrives (
    workspace_id    uuid        not null,
    position        text        not null,
    notification_id text        not null,
    redriven_by     text        not null,
    redriven_at     timestamptz not null,
    primary key (workspace_id, position)
);
