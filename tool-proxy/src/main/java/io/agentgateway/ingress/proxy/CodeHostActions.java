package io.agentgateway.ingress.proxy;

import io.agentgateway.classification.GraphQlActions;
import io.agentgateway.classification.RiskClassifier;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.http.HttpMethod;

/**
 * Spec 4.5's code-host table: method and path to action string; the risk of each action comes from
 * {@link RiskClassifier}, the table the decision stream uses (one table, no copy to drift). Requests no row
 * matches follow DESIGN.md: other safe methods are {@code read}/low, other writes medium, other
 * DELETEs high, with the action string of {@link PathTemplateActions}.
 *
 * <p>The code host routes case-insensitively ({@code PUT /Repos/o/r/Pulls/7/Merge} merges), so the
 * canonical segments are matched in lower case, and the repository named for policies is
 * {@code owner/repo} in lower case (the code host's names are case-insensitive too). Its GraphQL
 * endpoint ({@code POST /graphql}) is classified by {@link GraphQlActions}.
 */
final class CodeHostActions {
    private static final RiskClassifier RISKS = new RiskClassifier();

    private CodeHostActions() {}

    static ProxyAction classify(HttpMethod method, UpstreamPath path) {
        List<String> segments = lowerCase(path.segments());
        String action = tableRow(method, segments);
        if (action == null) {
            action = PathTemplateActions.of(method, segments);
        }
        RiskLevel risk = RISKS.classify(Tool.CODE_HOST, action, null).orElseThrow().level();
        boolean repository = segments.size() >= 3 && "repos".equals(segments.get(0));
        return repository
                ? new ProxyAction(action, risk, "repository", segments.get(1) + "/" + segments.get(2))
                : ProxyAction.of(action, risk);
    }

    /** Whether the canonical path is the code host's GraphQL endpoint ({@code /graphql}, in any case). */
    static boolean isGraphQl(UpstreamPath path) {
        return path.segments().size() == 1 && path.segments().get(0).equalsIgnoreCase("graphql");
    }

    /** The segments in lower case; the list itself when none has an upper-case letter (the usual request). */
    private static List<String> lowerCase(List<String> segments) {
        List<String> lower = null;
        for (int i = 0; i < segments.size(); i++) {
            String segment = segments.get(i);
            String lowered = segment.toLowerCase(Locale.ROOT);
            if (lower == null && !lowered.equals(segment)) {
                lower = new ArrayList<>(segments.subList(0, i));
            }
            if (lower != null) {
                lower.add(lowered);
            }
        }
        return lower == null ? segments : lower;
    }

    /** The action of the spec's row that matches the lower-cased segments, or null. */
    private static String tableRow(HttpMethod method, List<String> segments) {
        if (segments.isEmpty() || !"repos".equals(segments.get(0))) {
            return null;
        }
        if (method.equals(HttpMethod.GET)) {
            return "read";
        }
        if (segments.size() < 4) {
            return null;
        }
        List<String> rest = segments.subList(3, segments.size());
        String first = rest.get(0);
        int size = rest.size();
        if (method.equals(HttpMethod.POST)) {
            if (size == 1 && first.equals("issues")) return "issues.create";
            if (size == 3 && first.equals("issues") && rest.get(2).equals("comments")) return "issues.comment.create";
            if (size == 1 && first.equals("pulls")) return "pull_request.create";
            if (size == 1 && first.equals("releases")) return "release.create";
            if (size == 4 && first.equals("actions") && rest.get(1).equals("workflows") && rest.get(3).equals("dispatches")) {
                return "workflow.dispatch";
            }
        } else if (method.equals(HttpMethod.PATCH)) {
            if (size == 2 && first.equals("issues")) return "issues.update";
            if (size == 2 && first.equals("pulls")) return "pull_request.update";
        } else if (method.equals(HttpMethod.PUT)) {
            if (size == 3 && first.equals("pulls") && rest.get(2).equals("merge")) return "pull_request.merge";
            if (size >= 2 && first.equals("contents")) return "file.write";
        } else if (method.equals(HttpMethod.DELETE)) {
            if (size >= 2 && first.equals("contents")) return "file.delete";
            // a branch name may hold slashes (refs/heads/feature/x), sent encoded or not: both are segments here
            if (size >= 4 && first.equals("git") && rest.get(1).equals("refs") && rest.get(2).equals("heads")) {
                return "ref.delete";
            }
        }
        return null;
    }
}
