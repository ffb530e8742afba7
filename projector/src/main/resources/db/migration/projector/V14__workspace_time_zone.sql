-- The workspace's time zone (an IANA id), in which policy conditions read a command's time. Workspaces that never
-- set one are in UTC.
alter table workspaces
    add column time_zone text not null default 'UTC';
