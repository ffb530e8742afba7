// The console's API-key snippet for the code host, used as shown: `new Octokit({ baseUrl, auth })` with the two values
// the key's creation page displays (ConsoleAdminBrowserTest reads them off the page), then one read of a repository.
import { Octokit } from "@octokit/rest";
import { config, runCases } from "./lib/harness.mjs";

const octokit = new Octokit({ baseUrl: config.baseUrl, auth: config.auth });

await runCases({
  getRepo: async () => {
    const response = await octokit.rest.repos.get({ owner: config.owner, repo: config.repo });
    return { status: response.status };
  },
});
