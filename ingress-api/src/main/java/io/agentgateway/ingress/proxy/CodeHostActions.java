package io.agentgateway.ingress.proxy;

import io.agentgateway.decision.evaluation.RiskClassifier;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.util.List;
import org.springframework.http.HttpMethod;

/**
 * Spec 4.5's code-host table: method and path to action string; the risk of each action comes from
 * the decision stream's own {@link RiskClassifier} (one table, no copy to drift). Requests no row
 * matches follow DESIGN.md: other safe methods are {@code read}/low, other writes medium, other
 * DELETEs high, with the action string of {@link PathTemplateActions}.
 */
final class CodeHostActions {
    private static final RiskClassifier RISKS = new RiskClassifier();

    private CodeHostActions() {}

    static ProxyAction classify(HttpMethod method, UpstreamPath path) {
        String action = tableRow(method, path);
        if (action == null) {
            action = PathTemplateActions.of(method, path);
        }
        RiskLevel risk = RISKS.classify(Tool.CODE_HOST, action, null).orElseThrow().level();
        boolean repository = "repos".equals(path.segment(0)) && path.segments().size() >= 3;
        return repository
                ? new ProxyAction(action, risk, "repository", path.segment(1) + "/" + path.segment(2))
                : ProxyAction.of(action, risk);
    }

    /** The action of the spec's row that matches, or null. */
    private static String tableRow(HttpMethod method, UpstreamPath path) {
        if (!"repos".equals(path.segment(0))) {
            return null;
        }
        if (method.equals(HttpMethod.GET)) {
            return "read";
        }
        List<String> segments = path.segments();
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
            // a branch name may hold slashes: refs/heads/feature/x
            if (size >= 4 && first.equals("git") && rest.get(1).equals("refs") && rest.get(2).equals("heads")) {
                return "ref.delete";
            }
        }
        return null;
    }
}
