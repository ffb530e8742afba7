-- The notifier's delivery ledger: one row per notification and channel. A row is claimed
-- ('sending') and committed BEFORE the message leaves, so a redelivered notification can tell
-- "already sent" and "died mid-send" apart from "never tried" and is never delivered twice.
create table notifier.notification_deliveries (
    notification_id text        not null,
    channel         text        not null check (channel in ('email', 'chat')),
    status          text        not null check (status in ('sending', 'sent', 'failed', 'unknown')),
    attempts        integer     not null default 0,
    last_error      text,
    updated_at      timestamptz not null default now(),
    primary key (notification_id, channel)
);
