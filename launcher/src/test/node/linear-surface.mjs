// What @linear/sdk shows agent code through the gateway, configured as an agent developer would: apiUrl and
// the agent key as the SDK's `apiKey` (sent as the whole Authorization value). X-Agent-Id names the agent.
import { LinearClient } from "@linear/sdk";
import { config, runCases } from "./lib/harness.mjs";

const linearAs = (agentId) => new LinearClient({
  apiUrl: config.proxyBaseUrl + "/graphql",
  apiKey: config.apiKey,
  ...(agentId ? { headers: { "X-Agent-Id": agentId } } : {}),
});

/** What agent code reads from a LinearError: its class and message, and the gateway's fields in the raw body. */
async function surfaced(call) {
  try {
    return { threw: false, value: await call() };
  } catch (error) {
    const extensions = error?.raw?.response?.errors?.[0]?.extensions ?? null;
    return {
      threw: true,
      errorClass: error?.constructor?.name ?? null,
      type: error?.type ?? null,
      status: error?.status ?? null,
      message: error?.message ?? null,
      graphQlErrors: (error?.errors ?? []).map((e) => ({ type: e.type, message: e.message })),
      extensions,
      approvalRequestId: extensions?.approvalRequestId ?? null,
      statusUrl: extensions?.statusUrl ?? null,
      topLevelDecision: error?.raw?.response?.decision ?? null,
    };
  }
}

await runCases({
  viewer: async () => {
    const viewer = await linearAs(null).viewer;
    return { id: viewer.id };
  },
  createIssue: async () => {
    const created = await linearAs(config.agents.held).createIssue({ teamId: "TEAM-1", title: "from the Linear SDK" });
    return { success: created.success };
  },
  deleteHeld: async () => surfaced(async () => (await linearAs(config.agents.held).deleteIssue("ISS-1")).success),
  deleteBlocked: async () => surfaced(async () => (await linearAs(config.agents.blocked).deleteIssue("ISS-1")).success),
  wrongKey: async () => surfaced(async () => (await new LinearClient({ apiUrl: config.proxyBaseUrl + "/graphql",
    apiKey: "lin_api_not_an_agent_key" }).viewer).id),
});
