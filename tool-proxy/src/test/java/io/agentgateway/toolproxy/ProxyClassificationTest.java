package io.agentgateway.toolproxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.ClassificationRule;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Tool;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;

/** The proxy's classification: spec 4.5's tables, DESIGN.md's fallbacks, and the paths it refuses. */
class ProxyClassificationTest {

    @ParameterizedTest(name = "{0} {1} -> {2} {3}")
    @CsvSource({
            "GET,    /repos/acme/api/pulls?state=open,            read,                  low",
            "GET,    /repos/acme/api,                             read,                  low",
            "POST,   /repos/acme/api/issues,                      issues.create,         medium",
            "PATCH,  /repos/acme/api/issues/12,                   issues.update,         medium",
            "POST,   /repos/acme/api/issues/12/comments,          issues.comment.create, medium",
            "POST,   /repos/acme/api/pulls,                       pull_request.create,   high",
            "PATCH,  /repos/acme/api/pulls/7,                     pull_request.update,   medium",
            "PUT,    /repos/acme/api/pulls/7/merge,               pull_request.merge,    high",
            "PUT,    /repos/acme/api/contents/docs/a%20b.md,      file.write,            high",
            "DELETE, /repos/acme/api/contents/README.md,          file.delete,           critical",
            "POST,   /repos/acme/api/releases,                    release.create,        high",
            "DELETE, /repos/acme/api/git/refs/heads/feature/x,    ref.delete,            critical",
            "POST,   /repos/acme/api/actions/workflows/ci.yml/dispatches, workflow.dispatch, high",
            // DESIGN.md: rows that do not match
            "GET,    /user/repos,                                 read,                  low",
            "HEAD,   /repos/acme/api,                             read,                  low",
            "POST,   /user/repos,                                 user.repos.post,       medium",
            "PUT,    /repos/acme/api/collaborators/42,            repos.collaborators.put, medium",
            "DELETE, /repos/acme/api/hooks/42,                    repos.hooks.delete,    high",
            "DELETE, /user/starred/acme/api,                      user.starred.acme.api.delete, high",
            "POST,   /orgs/dropbox/repos,                         orgs.repos.post,       medium",
            "POST,   /repos/acme/drop-table/issues/1/labels,      repos.issues.labels.post, medium",
            "PATCH,  /repos/acme/api/issues/12/comments,          repos.issues.comments.patch, medium",
            // the canonical form is classified: encoded separators, and the code host's case-insensitive routes
            "DELETE, /repos/acme/api/git/refs/heads%2Ffeature-x,  ref.delete,            critical",
            "DELETE, /repos/acme/api/git/refs/heads%2ffeature%2Fx, ref.delete,           critical",
            "PUT,    /repos/acme/api/pulls/7%2Fmerge,             pull_request.merge,    high",
            "PUT,    /Repos/acme/api/pulls/7/merge,               pull_request.merge,    high",
            "PUT,    /repos/acme/api/Pulls/7/Merge,               pull_request.merge,    high",
            "DELETE, /REPOS/Acme/API/Contents/README.md,          file.delete,           critical",
            "PUT,    /repos/acme/api/contents/docs%2Fguide.md,    file.write,            high",
            "POST,   /Repos/acme/api/Actions/Workflows/ci.yml/Dispatches, workflow.dispatch, high",
            "DELETE, /Repos/acme/api/Hooks/42,                    repos.hooks.delete,    high",
            // what follows refs is a ref name, however it is sent
            "PATCH,  /repos/acme/api/git/refs/heads%2Fmain,       repos.git.refs.patch,  medium",
            "PATCH,  /repos/acme/api/git/refs/heads/main,         repos.git.refs.patch,  medium",
            "GET,    /Repos/acme/api/Pulls,                       read,                  low",
    })
    void codeHostRows(String method, String target, String action, String risk) {
        String path = target.contains("?") ? target.substring(0, target.indexOf('?')) : target;
        String query = target.contains("?") ? target.substring(target.indexOf('?') + 1) : null;
        ProxyAction classified = ProxyClassifier.classify(Tool.CODE_HOST, HttpMethod.valueOf(method),
                UpstreamPath.parse(path, query), new byte[0], List.of());
        assertThat(classified.action()).isEqualTo(action);
        assertThat(classified.risk()).isEqualTo(RiskLevel.parse(risk).orElseThrow());
    }

    @Test
    void repositoryRequestsNameTheirRepositoryInLowerCase() {
        ProxyAction merge = ProxyClassifier.classify(Tool.CODE_HOST, HttpMethod.PUT,
                UpstreamPath.parse("/repos/acme/api/pulls/7/merge", null), new byte[0], List.of());
        assertThat(merge.resourceType()).isEqualTo("repository");
        assertThat(merge.resourceId()).isEqualTo("acme/api");
        // the code host's names are case-insensitive: a policy on acme/api must hold for Acme/API too
        ProxyAction shouted = ProxyClassifier.classify(Tool.CODE_HOST, HttpMethod.PUT,
                UpstreamPath.parse("/Repos/Acme/API/Pulls/7/Merge", null), new byte[0], List.of());
        assertThat(shouted).isEqualTo(merge);
    }

    @ParameterizedTest
    @CsvSource({
            "/repos/acme/api/issues/../contents/x",
            "/repos/acme/api/issues/%2E%2E/contents/x",
            "/repos/acme/api/issues/%2e%2E%2Fcontents",
            "/repos/acme/./api",
            "/repos//api",
            "/repos/acme/api%5Cx",
    })
    void pathsAnUpstreamCouldReinterpretAreRefused(String path) {
        assertThatThrownBy(() -> UpstreamPath.parse(path, null))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST));
    }

    @Test
    void theRootPathHasNoSegments() {
        assertThat(UpstreamPath.parse("/", null).segments()).isEmpty();
        assertThat(classify(Tool.DOCS, "POST", "/")).isEqualTo(ProxyAction.of("root.post", RiskLevel.MEDIUM));
    }

    @Test
    void otherToolsGetTheSafeDefaults() {
        assertThat(classify(Tool.DOCS, "GET", "/pages/12")).isEqualTo(ProxyAction.of("read", RiskLevel.LOW));
        assertThat(classify(Tool.CHAT, "POST", "/api/chat.postMessage")).isEqualTo(ProxyAction.of("api.post", RiskLevel.MEDIUM));
        assertThat(classify(Tool.INTERNAL_API, "PUT", "/deployments/9")).isEqualTo(ProxyAction.of("deployments.put", RiskLevel.MEDIUM));
        assertThat(classify(Tool.INTERNAL_API, "DELETE", "/deployments/9")).isEqualTo(ProxyAction.of("deployments.delete", RiskLevel.HIGH));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a query with variables | {\"query\":\"query Issues($first: Int) { issues(first: $first) { nodes { id } } }\",\"variables\":{\"first\":2}} | read | low",
            "an anonymous query | {\"query\":\"{ viewer { id } }\"} | read | low",
            "IssueCreate by name | {\"query\":\"mutation IssueCreate($i: IssueCreateInput!) { issueCreate(input: $i) { success } }\"} | issue.create | medium",
            "a delete by root field | {\"query\":\"mutation M { issueDelete(id: \\\"1\\\") { success } }\"} | issue.delete | high",
            "a lying name | {\"query\":\"mutation IssueCreate { issueDelete(id: \\\"1\\\") { success } }\"} | issue.delete | high",
            "ProjectDelete | {\"query\":\"mutation ProjectDelete { projectDelete(id: \\\"1\\\") { success } }\"} | project.delete | high",
            "an unknown mutation | {\"query\":\"mutation { teamArchive(id: \\\"1\\\") { success } }\"} | team.archive | medium",
            "a mutation is never low | {\"query\":\"mutation { notificationMarkRead(id: \\\"1\\\") { success } }\"} | notification.mark.read.mutation | medium",
            "an aliased field | {\"query\":\"mutation { ok: commentDelete(id: \\\"1\\\") { success } }\"} | comment.delete | high",
            "a field behind a fragment | {\"query\":\"mutation Tidy { ...Cleanup } fragment Cleanup on Mutation { issueDelete(id: \\\"1\\\") { success } }\"} | issue.delete | high",
            "operationName picks the query | {\"query\":\"query Read { viewer { id } } mutation IssueDelete { issueDelete(id: \\\"1\\\") { success } }\",\"operationName\":\"Read\"} | read | low",
            "operationName picks the mutation | {\"query\":\"query Read { viewer { id } } mutation IssueDelete { issueDelete(id: \\\"1\\\") { success } }\",\"operationName\":\"IssueDelete\"} | issue.delete | high",
    })
    void issueTrackerGraphQl(String description, String body, String action, String risk) {
        ProxyAction classified = ProxyClassifier.classify(Tool.ISSUE_TRACKER, HttpMethod.POST,
                UpstreamPath.parse("/graphql", null), body.getBytes(StandardCharsets.UTF_8), List.of());
        assertThat(classified).isEqualTo(ProxyAction.of(action, RiskLevel.parse(risk).orElseThrow()));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a query | {\"query\":\"query { viewer { login } }\"} | read | low",
            "mergePullRequest | {\"query\":\"mutation { mergePullRequest(input: {pullRequestId: \\\"PR_1\\\"}) { clientMutationId } }\"} | pull_request.merge | high",
            "enablePullRequestAutoMerge | {\"query\":\"mutation M($i: EnablePullRequestAutoMergeInput!) { enablePullRequestAutoMerge(input: $i) { clientMutationId } }\",\"variables\":{\"i\":{}}} | pull_request.merge | high",
            "deleteRef | {\"query\":\"mutation { deleteRef(input: {refId: \\\"R_1\\\"}) { clientMutationId } }\"} | ref.delete | critical",
            "updateRefs | {\"query\":\"mutation { updateRefs(input: {repositoryId: \\\"R\\\", refUpdates: []}) { clientMutationId } }\"} | ref.delete | critical",
            "createCommitOnBranch | {\"query\":\"mutation C($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }\",\"variables\":{\"input\":{\"fileChanges\":{\"additions\":[{\"path\":\"a\",\"contents\":\"eA==\"}]}}}} | file.write | high",
            "a commit that deletes, in variables | {\"query\":\"mutation C($input: CreateCommitOnBranchInput!) { createCommitOnBranch(input: $input) { commit { oid } } }\",\"variables\":{\"input\":{\"fileChanges\":{\"deletions\":[{\"path\":\"README.md\"}]}}}} | file.delete | critical",
            "a commit that deletes, inline | {\"query\":\"mutation { createCommitOnBranch(input: {fileChanges: {deletions: [{path: \\\"a\\\"}]}}) { clientMutationId } }\"} | file.delete | critical",
            "a commit that deletes, by a variable's default | {\"query\":\"mutation C($d: [FileDeletion!] = [{path: \\\"a\\\"}]) { createCommitOnBranch(input: {fileChanges: {deletions: $d}}) { clientMutationId } }\"} | file.delete | critical",
            "a commit with no deletions | {\"query\":\"mutation { createCommitOnBranch(input: {fileChanges: {deletions: []}}) { clientMutationId } }\"} | file.write | high",
            "createPullRequest | {\"query\":\"mutation { createPullRequest(input: {}) { clientMutationId } }\"} | pull_request.create | high",
            "updatePullRequest | {\"query\":\"mutation { updatePullRequest(input: {}) { clientMutationId } }\"} | pull_request.update | medium",
            "createIssue | {\"query\":\"mutation { createIssue(input: {}) { clientMutationId } }\"} | issues.create | medium",
            "updateIssue | {\"query\":\"mutation { updateIssue(input: {}) { clientMutationId } }\"} | issues.update | medium",
            "addComment | {\"query\":\"mutation { addComment(input: {}) { clientMutationId } }\"} | issues.comment.create | medium",
            "the most severe root field wins | {\"query\":\"mutation { addComment(input: {}) { clientMutationId } m: mergePullRequest(input: {}) { clientMutationId } }\"} | pull_request.merge | high",
            "behind a fragment | {\"query\":\"mutation Tidy { ...F } fragment F on Mutation { deleteRef(input: {}) { clientMutationId } }\"} | ref.delete | critical",
            "an unknown mutation | {\"query\":\"mutation { addStar(input: {}) { clientMutationId } }\"} | star.add | medium",
            "an unknown delete | {\"query\":\"mutation { deleteIssue(input: {}) { clientMutationId } }\"} | issue.delete | high",
            "a mutation is never low | {\"query\":\"mutation { createUserList(input: {}) { clientMutationId } }\"} | user.list.create | medium",
            "a read-sounding mutation | {\"query\":\"mutation { markNotificationsAsRead(input: {}) { success } }\"} | notifications.as.read.mark | medium",
            "the operation name counts for nothing | {\"query\":\"mutation AddComment { deleteRef(input: {}) { clientMutationId } }\"} | ref.delete | critical",
    })
    void codeHostGraphQl(String description, String body, String action, String risk) {
        ProxyAction classified = ProxyClassifier.classify(Tool.CODE_HOST, HttpMethod.POST,
                UpstreamPath.parse("/graphql", null), body.getBytes(StandardCharsets.UTF_8), List.of());
        assertThat(classified).isEqualTo(ProxyAction.of(action, RiskLevel.parse(risk).orElseThrow()));
    }

    @Test
    void theCodeHostsGraphQlTakesPostOnlyInAnyCase() {
        byte[] merge = "{\"query\":\"mutation { mergePullRequest(input: {}) { clientMutationId } }\"}".getBytes(StandardCharsets.UTF_8);
        assertThat(ProxyClassifier.classify(Tool.CODE_HOST, HttpMethod.POST, UpstreamPath.parse("/GraphQL", null), merge, List.of())
                .action()).isEqualTo("pull_request.merge");
        assertThatThrownBy(() -> classify(Tool.CODE_HOST, "GET", "/graphql"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"CODE_HOST", "ISSUE_TRACKER"})
    void aDocumentWithTwoOperationsOfOneNameIsRefused(Tool tool) {
        byte[] body = ("{\"query\":\"query Same { viewer { id } } mutation Same { deleteRef(input: {}) { clientMutationId } }\","
                + "\"operationName\":\"Same\"}").getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> ProxyClassifier.classify(tool, HttpMethod.POST, UpstreamPath.parse("/graphql", null), body, List.of()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).isEqualTo("The GraphQL document holds two operations named Same; operation names must be unique");
                });
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "not JSON | query { | The GraphQL request body must be a JSON object with a query",
            "no query | {\"variables\":{}} | query must be a non-empty string holding a GraphQL document",
            "variables not an object | {\"query\":\"{ a }\",\"variables\":[1]} | variables must be an object",
            "broken document | {\"query\":\"mutation { issueCreate( }\"} | Malformed GraphQL query: ",
            "several without a name | {\"query\":\"query A { a } query B { b }\"} | operationName is required when the document holds several operations",
            "an unknown name | {\"query\":\"query A { a }\",\"operationName\":\"B\"} | operationName B names no operation of the document",
            "an undefined fragment | {\"query\":\"mutation { ...Missing }\"} | Malformed GraphQL query: fragment Missing is not defined",
    })
    void malformedGraphQlIsAClearBadRequest(String description, String body, String message) {
        assertThatThrownBy(() -> ProxyClassifier.classify(Tool.ISSUE_TRACKER, HttpMethod.POST,
                UpstreamPath.parse("/graphql", null), body.getBytes(StandardCharsets.UTF_8), List.of()))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(HttpStatus.BAD_REQUEST);
                    assertThat(e.getMessage()).startsWith(message);
                });
    }

    @Test
    void theIssueTrackerHasOnePath() {
        assertThatThrownBy(() -> classify(Tool.ISSUE_TRACKER, "POST", "/rest/issues"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.NOT_FOUND));
        assertThatThrownBy(() -> classify(Tool.ISSUE_TRACKER, "GET", "/graphql"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.status()).isEqualTo(HttpStatus.METHOD_NOT_ALLOWED));
    }

    private static ProxyAction classify(Tool tool, String method, String path) {
        return classify(tool, method, path, List.of());
    }

    private static ProxyAction classify(Tool tool, String method, String path, List<ClassificationRule> rules) {
        return ProxyClassifier.classify(tool, HttpMethod.valueOf(method), UpstreamPath.parse(path, null), new byte[0], rules);
    }

    private static final List<ClassificationRule> RULES = List.of(
            new ClassificationRule("POST", "/channels/*/messages", "message.send", RiskLevel.LOW),
            new ClassificationRule("*", "/admin/**", "admin.call", RiskLevel.CRITICAL),
            new ClassificationRule("GET", "/", "root.read", RiskLevel.MEDIUM),
            new ClassificationRule("*", "/channels/**", "channel.any", RiskLevel.HIGH));

    @ParameterizedTest
    @CsvSource({
            "POST,   /channels/x/messages,        message.send, low",
            "POST,   /channels/x%20y/messages/,   message.send, low",
            "PUT,    /channels/x/messages,        channel.any,  high",
            "POST,   /channels/x/messages/7,      channel.any,  high",
            "POST,   /channels/messages,          channel.any,  high",
            "GET,    /admin,                      admin.call,   critical",
            "DELETE, /admin/users/7/sessions,     admin.call,   critical",
            "GET,    /,                           root.read,    medium",
            // literal segments match in any case, and the canonical (decoded) segments are matched
            "POST,   /Admin/users,                admin.call,   critical",
            "POST,   /ADMIN/users/7/ban,          admin.call,   critical",
            "POST,   /admin%2Fusers%2F7%2Fban,    admin.call,   critical",
            "POST,   /CHANNELS/x/Messages,        message.send, low",
            "POST,   /channels/x%2Fmessages,      message.send, low",
            "DELETE, /threads/9,                  threads.delete, high",
            "GET,    /threads/9,                  read,         low",
    })
    void chatDocsAndInternalApisTakeTheirFirstMatchingRuleElseTheSafeDefaults(String method, String path, String action,
                                                                              String risk) {
        assertThat(classify(Tool.CHAT, method, path, RULES)).isEqualTo(ProxyAction.of(action, RiskLevel.parse(risk).orElseThrow()));
    }

    @Test
    void theFirstMatchingRuleWinsAndRulesNeverReachTheFixedTables() {
        List<ClassificationRule> lowFirst = List.of(new ClassificationRule("*", "/**", "anything", RiskLevel.LOW),
                new ClassificationRule("DELETE", "/**", "delete", RiskLevel.CRITICAL));
        assertThat(classify(Tool.INTERNAL_API, "DELETE", "/x", lowFirst)).isEqualTo(ProxyAction.of("anything", RiskLevel.LOW));
        // the code host keeps the spec's table whatever rules are handed in
        assertThat(classify(Tool.CODE_HOST, "DELETE", "/repos/acme/api/git/refs/heads/x", lowFirst).risk())
                .isEqualTo(RiskLevel.CRITICAL);
    }
}
