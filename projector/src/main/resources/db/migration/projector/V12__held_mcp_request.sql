-- Issue 15. An MCP resources/read or prompts/get that needs an approval is held like a tools/call: its
-- sealed call is of the new kind mcp_request (HeldMcpRequest: method and params), run once after approval.
alter table approval_requests
    drop constraint approval_requests_held_call_kind_check;
alter table approval_requests
    add constraint approval_requests_held_call_kind_check
        check (held_call_kind in ('http_request', 'mcp_tool_call', 'mcp_request'));
