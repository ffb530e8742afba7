package io.agentgateway.decisioncore.core.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.decisioncore.core.CommandAuthorizer;
import io.agentgateway.decisioncore.core.CoreWorkspace.Decided;
import io.agentgateway.decisioncore.core.CoreWorkspace;
import io.agentgateway.decisioncore.core.DecisionLimits;
import io.agentgateway.decisioncore.core.DecisionSettings;
import io.agentgateway.decisioncore.state.ApiKeyGrant;
import io.agentgateway.schemas.Actor;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.ReplyStatus;
import io.agentgateway.schemas.RiskLevel;
import io.agentgateway.schemas.Role;
import io.agentgateway.schemas.Scope;
import io.agentgateway.schemas.Tool;
import io.agentgateway.schemas.command.CheckAccess;
import io.agentgateway.schemas.command.IssueApiKey;
import io.agentgateway.schemas.command.RevokeApiKey;
import io.agentgateway.schemas.event.ApiKeyIssued;
import io.agentgateway.schemas.event.ApiKeyRevoked;
import io.agentgateway.schemas.event.LimitReached;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * API keys decided by the core alone: {@code issue_api_key} (checks, duplicates, the keys limit, agent binding),
 * {@code revoke_api_key} (in log order, idempotent), and what a key may then do ({@code evaluate_action},
 * {@code check_access}).
 */
class ApiKeyHandlersTest {
    private final CoreWorkspace workspace = CoreWorkspace.create();

    private static String hash(char c) {
        return String.valueOf(c).repeat(64);
    }

    @Test
    void an_issued_key_is_stored_by_hash_and_id_and_counted() {
        String keyId = UUID.randomUUID().toString();
        Instant expires = workspace.now().plus(Duration.ofDays(1));

        Decided issued = workspace.admin(new IssueApiKey(keyId, "ci", hash('1'), Set.of(Scope.PROXY), expires)).ok();

        ApiKeyIssued event = issued.event(0, ApiKeyIssued.class);
        assertThat(event.keyId()).isEqualTo(keyId);
        assertThat(event.keyHash()).isEqualTo(hash('1'));
        assertThat(event.scopes()).containsExactly(Scope.PROXY);
        ApiKeyGrant grant = workspace.memory.apiKeys().get(hash('1'));
        assertThat(grant.keyId()).isEqualTo(keyId);
        assertThat(grant.expiresAt()).isEqualTo(expires);
        assertThat(grant.revokedAt()).isNull();
        assertThat(workspace.state().apiKeyHashOf(keyId)).contains(hash('1'));
        assertThat(issued.after().apiKeyCount()).isEqualTo(issued.before().apiKeyCount() + 1);
    }

    @Test
    void malformed_duplicate_or_unauthorized_issues_are_refused() {
        workspace.admin(new IssueApiKey("k1", "ci", hash('1'), Set.of(Scope.PROXY), null))
                .refused(ReplyStatus.INVALID, "keyId must be a lower-case UUID");
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", "ABC", Set.of(Scope.PROXY), null))
                .refused(ReplyStatus.INVALID, "keyHash must be the lower-case hex SHA-256 of the key");
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", hash('1'), Set.of(), null))
                .refused(ReplyStatus.INVALID, "scopes must name at least one of evaluate, mcp, proxy");
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", hash('1'), Set.of(Scope.PROXY), workspace.now()))
                .refused(ReplyStatus.INVALID, "expiresAt must be in the future");
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", hash('1'), Set.of(Scope.PROXY), null, "bot", "bot-*"))
                .refused(ReplyStatus.INVALID,
                        "agentId and agentIdPattern cannot both be set: bind the key to one agent id or to one pattern");
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", CoreWorkspace.EVALUATE_KEY, Set.of(Scope.PROXY), null))
                .refused(ReplyStatus.CONFLICT, "API key already exists");

        Actor member = workspace.member("mia", Role.MEMBER);
        workspace.as(member, new IssueApiKey(UUID.randomUUID().toString(), "ci", hash('2'), Set.of(Scope.PROXY), null))
                .refused(ReplyStatus.FORBIDDEN, CommandAuthorizer.ADMIN_REQUIRED);
    }

    @Test
    void the_keys_limit_refuses_with_an_audit_entry_and_no_change() {
        CoreWorkspace limited = CoreWorkspace.create(DecisionSettings.defaults()
                .withLimits(DecisionLimits.defaults().withApiKeys(1)));

        Decided refused = limited.admin(new IssueApiKey(UUID.randomUUID().toString(), "ci", hash('3'), Set.of(Scope.MCP), null));

        assertThat(refused.status()).isEqualTo(ReplyStatus.LIMITED);
        LimitReached audit = refused.event(0, LimitReached.class);
        assertThat(audit.limit()).isEqualTo(DecisionLimits.API_KEYS);
        assertThat(audit.cap()).isEqualTo(1);
        assertThat(audit.command()).isEqualTo("issue_api_key");
        assertThat(refused.after()).isSameAs(refused.before());
        assertThat(limited.memory.apiKeys()).doesNotContainKey(hash('3'));
    }

    @Test
    void a_revoked_key_acts_no_more_and_revoking_again_changes_nothing() {
        String keyId = UUID.randomUUID().toString();
        workspace.admin(new IssueApiKey(keyId, "agent", hash('4'), Set.of(Scope.EVALUATE), null)).ok();
        Actor agent = Actor.apiKey(hash('4'), "agent-7");
        workspace.as(agent, CoreWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW)).ok();

        Decided revoked = workspace.admin(new RevokeApiKey(keyId)).ok();

        assertThat(revoked.event(0, ApiKeyRevoked.class).keyId()).isEqualTo(keyId);
        assertThat(workspace.memory.apiKeys().get(hash('4')).revokedAt()).isEqualTo(revoked.envelope().acceptedAt());
        workspace.as(agent, CoreWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);

        Decided again = workspace.admin(new RevokeApiKey(keyId)).ok();
        assertThat(again.events()).isEmpty();
        assertThat(again.after()).isSameAs(again.before());
        workspace.admin(new RevokeApiKey(UUID.randomUUID().toString())).refused(ReplyStatus.NOT_FOUND, "API key not found");
    }

    @Test
    void a_key_acts_only_within_its_scopes_and_until_it_expires() {
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "proxy only", hash('5'), Set.of(Scope.PROXY),
                workspace.now().plus(Duration.ofMinutes(1)))).ok();
        Actor proxyKey = Actor.apiKey(hash('5'), null);

        workspace.as(proxyKey, CoreWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
        workspace.as(proxyKey, new CheckAccess(Scope.PROXY, null, null, null)).ok();
        workspace.as(proxyKey, new CheckAccess(Scope.MCP, null, null, null))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);

        workspace.advance(Duration.ofMinutes(2));
        workspace.as(proxyKey, new CheckAccess(null, null, null, null))
                .refused(ReplyStatus.UNAUTHORIZED, CommandAuthorizer.INVALID_KEY);
    }

    @Test
    void a_key_bound_to_an_agent_acts_only_as_that_agent() {
        workspace.admin(new IssueApiKey(UUID.randomUUID().toString(), "bot", hash('6'), Set.of(Scope.EVALUATE), null,
                "release-bot", null)).ok();
        Actor bound = Actor.apiKey(hash('6'), null);

        workspace.as(bound, CoreWorkspace.action(Tool.DOCS, "page.read", RiskLevel.LOW))
                .refused(ReplyStatus.FORBIDDEN, "This API key is bound to agent 'release-bot' and cannot act as agent"
                        + " 'agent-7' (X-Agent-Id / agentId); send the bound agent id or none");
        Decided asItself = workspace.as(bound, new io.agentgateway.schemas.command.EvaluateAction(Tool.DOCS, "page.read",
                RiskLevel.LOW, null, null, null, null, null, null, io.agentgateway.schemas.ActionSource.EVALUATE,
                Scope.EVALUATE, false)).ok();
        assertThat(asItself.decision().evaluation().decision()).isEqualTo(Decision.ALLOW);
        assertThat(asItself.event(0, io.agentgateway.schemas.event.ActionEvaluated.class).agentId()).isEqualTo("release-bot");
    }
}
