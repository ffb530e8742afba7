// @linear/sdk through the gateway's proxy against a policy that blocks deleting an issue unless it carries a label
// (ConditionalProxyEndToEndTest): the gateway looks the issue's labels up before deciding.
import { LinearClient } from "@linear/sdk";
import { config, runCases } from "./lib/harness.mjs";

const linear = new LinearClient({
  apiUrl: config.proxyBaseUrl + "/graphql",
  accessToken: config.apiKey,
  headers: { "X-Agent-Id": config.agentId },
});

const remove = (id) => async () => {
  const deleted = await linear.deleteIssue(id);
  return { success: deleted.success };
};

await runCases({
  deleteLabelled: remove("ISS-DELETABLE"),
  deleteUnlabelled: remove("ISS-KEEP"),
  deleteWhoseLabelsCannotBeLookedUp: remove("ISS-ERROR"),
});
