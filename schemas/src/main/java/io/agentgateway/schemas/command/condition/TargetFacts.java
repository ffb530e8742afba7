package io.agentgateway.schemas.command.condition;

import java.util.List;

/**
 * What an action acts on, as the entry point found it (raw: the decision core normalizes it for policy conditions,
 * the same way for every entry point, so that replay and back-test see what the stream saw). Each field is null when
 * the entry point does not know it; the decision core then derives what it can from the arguments
 * (docs/policies.md, "target").
 *
 * @param owner        code host: the repository owner
 * @param repo         code host: the repository name
 * @param branch       code host: the branch written to or merged into, as given ({@code refs/heads/main} or {@code main}),
 *                     for a pull request merge its base branch as the code host reported it
 * @param path         code host: the file path as given (before normalization)
 * @param team         issue tracker: the team (key or id)
 * @param organization issue tracker: the organization (id or url key)
 * @param labels       issue tracker / code host: the label names of the issue or pull request acted on
 */
public record TargetFacts(
        String owner,
        String repo,
        String branch,
        String path,
        String team,
        String organization,
        List<String> labels) {

    public static final TargetFacts NONE = new TargetFacts(null, null, null, null, null, null, null);
}
