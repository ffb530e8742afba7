-- When an API key was last used: the time of the newest evaluation it made (any entry point: evaluate-action, the
-- proxy, the MCP gate), to the minute. The admin API and the console list it beside each key, so that an admin sees
-- which keys are idle before revoking them. Written only when it moves by a minute or more, so that a busy key costs
-- an index lookup per evaluation and a row write per minute, not one per evaluation. Null: never used (or not since
-- this migration).
alter table api_keys add column last_used_at timestamptz;
