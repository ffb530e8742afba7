// @octokit/rest through the gateway's proxy, the way an agent would use it: the base URL replaced by
// <gateway>/functions/v1/gateway-proxy/code_host, everything else as the library does it.
import { Octokit } from "@octokit/rest";
import { config, runCases } from "./lib/harness.mjs";

// octokit's default auth: the agent key is sent as "Authorization: token agk_…" (issue 16). Only the agent's
// name is added, as X-Agent-Id (optional; octokit has no option for an extra header on every request).
const octokit = new Octokit({ baseUrl: config.proxyBaseUrl, auth: config.apiKey });
octokit.hook.before("request", (options) => {
  options.headers["x-agent-id"] = config.agentId;
});

const repo = { owner: "acme", repo: "api" };
const status = (response) => ({ status: response.status, data: response.data });

await runCases({
  // octokit encodes the ref's slash: DELETE …/git/refs/heads%2Ffeature-x
  deleteRef: async () => status(await octokit.git.deleteRef({ ...repo, ref: "heads/feature-x" })),
  // a path parameter holding a slash: PUT …/pulls/7%2Fmerge
  mergeEncoded: async () => status(await octokit.request("PUT /repos/{owner}/{repo}/pulls/{pull_number}",
    { ...repo, pull_number: "7/merge" })),
  mergeCapitalRepos: async () => status(await octokit.request("PUT /Repos/{owner}/{repo}/pulls/{pull_number}/merge",
    { ...repo, pull_number: 7 })),
  mergeCapitalPulls: async () => status(await octokit.request("PUT /repos/{owner}/{repo}/Pulls/{pull_number}/Merge",
    { ...repo, pull_number: 7 })),
  // a literal ; of the route is sent as it is: PUT …/merge;x=1
  mergePathParameter: async () => status(await octokit.request("PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge;x=1",
    { ...repo, pull_number: 7 })),
  methodOverride: async () => status(await octokit.request("POST /repos/{owner}/{repo}/issues",
    { ...repo, title: "x", headers: { "x-http-method-override": "DELETE" } })),
  createIssue: async () => status(await octokit.issues.create({ ...repo, title: "from octokit" })),
  graphqlMerge: async () => octokit.graphql(
    "mutation($id: ID!) { mergePullRequest(input: {pullRequestId: $id}) { pullRequest { merged } } }", { id: "PR_1" }),
  graphqlDeleteRef: async () => octokit.graphql(
    "mutation($id: ID!) { deleteRef(input: {refId: $id}) { clientMutationId } }", { id: "REF_1" }),
  graphqlViewer: async () => octokit.graphql("query { viewer { login } }"),
  // every page through the gateway: the upstream's Link headers must point back at it
  paginate: async () => (await octokit.paginate("GET /repos/{owner}/{repo}/issues", { ...repo, per_page: 2 }))
    .map((issue) => issue.number),
});
