// @linear/sdk through the gateway's proxy: apiUrl replaced by
// <gateway>/functions/v1/gateway-proxy/issue_tracker/graphql, the agent key as an OAuth-style access token
// (the SDK then sends Authorization: Bearer agk_…), X-Agent-Id as an extra header.
import { LinearClient } from "@linear/sdk";
import { config, runCases } from "./lib/harness.mjs";

const linear = new LinearClient({
  apiUrl: config.proxyBaseUrl + "/graphql",
  accessToken: config.apiKey,
  headers: { "X-Agent-Id": config.agentId },
});

await runCases({
  viewer: async () => {
    const viewer = await linear.viewer;
    return { id: viewer.id, name: viewer.name };
  },
  createIssue: async () => {
    const created = await linear.createIssue({ teamId: "TEAM-1", title: "from the Linear SDK" });
    return { success: created.success, lastSyncId: created.lastSyncId };
  },
  deleteIssue: async () => {
    const deleted = await linear.deleteIssue("ISS-1");
    return { success: deleted.success };
  },
  // a document the SDK's own methods never send: two operations, none chosen
  ambiguousDocument: async () => linear.client.rawRequest(
    "query Same { viewer { id } } mutation Same { issueDelete(id: \"ISS-1\") { success } }", {}),
});
