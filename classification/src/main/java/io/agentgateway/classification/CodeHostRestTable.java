package io.agentgateway.classification;

import java.util.List;

/**
 * Spec 4.5's code-host table: method and path to action string; the risk of each action is the code host's risk
 * table's ({@link RiskTables#CODE_HOST}, the one the decision stream uses: no copy to drift). Requests no row matches
 * follow DESIGN.md: other safe methods are {@code read}, other requests the action string of
 * {@link PathTemplateActions} (other writes are then medium, other DELETEs high).
 *
 * <p>The code host routes case-insensitively ({@code PUT /Repos/o/r/Pulls/7/Merge} merges), so its profile says
 * so and the segments come here in lower case; the repository named for policies is {@code owner/repo} in lower
 * case (the code host's names are case-insensitive too). Its GraphQL endpoint ({@code POST /graphql}) is
 * classified by {@link GraphQlActions} with {@link CodeHostGraphQl}.
 */
final class CodeHostRestTable implements RestActionTable {

    @Override
    public RestAction classify(String method, List<String> segments) {
        String action = tableRow(method, segments);
        if (action == null) {
            action = PathTemplateActions.of(method, segments);
        }
        boolean repository = segments.size() >= 3 && "repos".equals(segments.get(0));
        return repository
                ? new RestAction(action, "repository", segments.get(1) + "/" + segments.get(2))
                : new RestAction(action, null, null);
    }

    /** The action of the spec's row that matches the lower-cased segments, or null. */
    private static String tableRow(String method, List<String> segments) {
        if (segments.isEmpty() || !"repos".equals(segments.get(0))) {
            return null;
        }
        if (method.equals("GET")) {
            return "read";
        }
        if (segments.size() < 4) {
            return null;
        }
        List<String> rest = segments.subList(3, segments.size());
        String first = rest.get(0);
        int size = rest.size();
        if (method.equals("POST")) {
            if (size == 1 && first.equals("issues")) return "issues.create";
            if (size == 3 && first.equals("issues") && rest.get(2).equals("comments")) return "issues.comment.create";
            if (size == 1 && first.equals("pulls")) return "pull_request.create";
            if (size == 1 && first.equals("releases")) return "release.create";
            if (size == 4 && first.equals("actions") && rest.get(1).equals("workflows") && rest.get(3).equals("dispatches")) {
                return "workflow.dispatch";
            }
        } else if (method.equals("PATCH")) {
            if (size == 2 && first.equals("issues")) return "issues.update";
            if (size == 2 && first.equals("pulls")) return "pull_request.update";
        } else if (method.equals("PUT")) {
            if (size == 3 && first.equals("pulls") && rest.get(2).equals("merge")) return "pull_request.merge";
            if (size >= 2 && first.equals("contents")) return "file.write";
        } else if (method.equals("DELETE")) {
            if (size >= 2 && first.equals("contents")) return "file.delete";
            // a branch name may hold slashes (refs/heads/feature/x), sent encoded or not: both are segments here
            if (size >= 4 && first.equals("git") && rest.get(1).equals("refs") && rest.get(2).equals("heads")) {
                return "ref.delete";
            }
        }
        return null;
    }
}
