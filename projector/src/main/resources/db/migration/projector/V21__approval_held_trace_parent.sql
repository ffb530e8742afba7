-- The W3C traceparent of the traced request whose call an approval holds (from the ApprovalRequested record's header):
-- the approval executor's span of the run links to it, so a trace backend leads from a held request to its execution.
-- Null when the request was not traced (tracing is off by default) and for approvals opened before it.
alter table approval_requests
    add column held_trace_parent text;
