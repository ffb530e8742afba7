// @octokit/rest through the gateway's proxy against policies with conditions (ConditionalProxyEndToEndTest):
// workflow files written under every spelling, merges whose base branch the gateway looks up.
import { Octokit } from "@octokit/rest";
import { config, runCases } from "./lib/harness.mjs";

const octokit = new Octokit({ baseUrl: config.proxyBaseUrl, auth: config.apiKey });
octokit.hook.before("request", (options) => {
  options.headers["x-agent-id"] = config.agentId;
});

const repo = { owner: "acme", repo: "api" };
const status = (response) => ({ status: response.status, data: response.data });
const write = (path) => async () => status(await octokit.repos.createOrUpdateFileContents({
  ...repo, path, message: "ci", content: Buffer.from("on: push\n").toString("base64") }));

await runCases({
  writeWorkflow: write(".github/workflows/ci.yml"),
  writeWorkflowUpperCase: write(".GITHUB/Workflows/ci.yml"),
  writeWorkflowDotSegment: write(".github/./workflows/ci.yml"),
  writeWorkflowDoubleSlash: write(".github//workflows/ci.yml"),
  writeWorkflowEncodedDot: write("%2egithub/workflows/ci.yml"),
  writeWorkflowRawDotSegment: async () => status(await octokit.request("PUT /repos/{owner}/{repo}/contents/.github/./workflows/x.yml",
    { ...repo, message: "ci", content: "b24=" })),
  writeWorkflowRawEncodedDot: async () => status(await octokit.request("PUT /repos/{owner}/{repo}/contents/%2egithub/workflows/x.yml",
    { ...repo, message: "ci", content: "b24=" })),
  writeSource: write("src/app.py"),
  mergeIntoMain: async () => status(await octokit.pulls.merge({ ...repo, pull_number: 1 })),
  mergeIntoRelease: async () => status(await octokit.pulls.merge({ ...repo, pull_number: 2 })),
  mergeWhoseBaseCannotBeLookedUp: async () => status(await octokit.pulls.merge({ ...repo, pull_number: 3 })),
  mergeIntoRefsHeadsMain: async () => status(await octokit.pulls.merge({ ...repo, pull_number: 4 })),
  mergeInAnotherRepository: async () => status(await octokit.pulls.merge({ owner: "acme", repo: "docs", pull_number: 1 })),
});
