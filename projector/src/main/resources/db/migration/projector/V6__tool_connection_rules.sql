-- The per-connection classification rules of chat, docs and internal_api connections, in order (first
-- match wins), as the decision stream accepted them: [{"method", "path", "action", "risk"}, ...]. One
-- JSON column rather than a table: the proxy always reads the whole list with the connection, and
-- nothing queries single rules. Rows written before this column existed have no rules.
alter table tool_connections
    add column rules jsonb not null default '[]'::jsonb check (jsonb_typeof(rules) = 'array');
