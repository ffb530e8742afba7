// What @octokit/rest shows agent code through the gateway, configured as an agent developer would:
// the base URL and the key, octokit's default `auth` (sent as "Authorization: token agk_…"), nothing else.
// Only the agent's name is added (X-Agent-Id, optional): the workspace's policies pick by it.
import { Octokit } from "@octokit/rest";
import { config, runCases } from "./lib/harness.mjs";

function octokitAs(agentId) {
  const octokit = new Octokit({ baseUrl: config.proxyBaseUrl, auth: config.apiKey });
  if (agentId) {
    octokit.hook.before("request", (options) => {
      options.headers["x-agent-id"] = agentId;
    });
  }
  return octokit;
}

const repo = { owner: "acme", repo: "api" };
const plain = octokitAs(null);
const held = octokitAs(config.agents.held);

await runCases({
  // pulls.merge: allowed by a policy for this agent, blocked by one for that agent, held by the default (high)
  mergeAllowed: async () => {
    const { status, data } = await octokitAs(config.agents.allowed).pulls.merge({ ...repo, pull_number: 7 });
    return { status, merged: data.merged, message: data.message };
  },
  mergeBlocked: async () => octokitAs(config.agents.blocked).pulls.merge({ ...repo, pull_number: 7 }),
  mergeHeld: async () => held.pulls.merge({ ...repo, pull_number: 7 }),
  // ref.delete is critical: blocked by the built-in defaults
  deleteRef: async () => held.git.deleteRef({ ...repo, ref: "heads/feature-x" }),
  // reads: every page through the gateway, the raw file and the diff as the code host sends them
  paginate: async () => (await plain.paginate(plain.issues.listForRepo, { ...repo, per_page: 2 })).map((i) => i.number),
  rawContent: async () => {
    const { status, data, headers } = await plain.repos.getContent({ ...repo, path: "README.md", mediaType: { format: "raw" } });
    return { status, data, contentType: headers["content-type"] };
  },
  jsonContent: async () => {
    const { data } = await plain.repos.getContent({ ...repo, path: "README.md" });
    return { type: data.type, content: Buffer.from(data.content, "base64").toString("utf8") };
  },
  diff: async () => {
    const { status, data, headers } = await plain.pulls.get({ ...repo, pull_number: 7, mediaType: { format: "diff" } });
    return { status, data, contentType: headers["content-type"] };
  },
  // the agent's key in octokit's other forms: a "Bearer …" or "token …" auth string is sent as it is given
  bearerAuth: async () => (await new Octokit({ baseUrl: config.proxyBaseUrl, auth: `Bearer ${config.apiKey}` })
    .issues.create({ ...repo, title: "with a Bearer auth string" })).status,
  // a key that is not one: octokit's own 401
  wrongKey: async () => new Octokit({ baseUrl: config.proxyBaseUrl, auth: "ghp_not_an_agent_key" }).issues.listForRepo(repo),
});
