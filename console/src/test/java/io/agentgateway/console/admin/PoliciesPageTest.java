package io.agentgateway.console.admin;

import static io.agentgateway.console.web.ConsolePageClient.WORKSPACE;
import static io.agentgateway.console.web.ConsolePageClient.form;
import static io.agentgateway.console.web.ConsolePageClient.html;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyBoolean;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.backtest.Backtests;
import io.agentgateway.adminapi.policies.PolicyAdmin;
import io.agentgateway.adminapi.policies.PolicyTests;
import io.agentgateway.adminapi.policies.WorkspaceDefaults;
import io.agentgateway.adminapi.shared.Applied;
import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.console.ConsoleConfiguration;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Decision;
import io.agentgateway.schemas.Policy;
import io.agentgateway.schemas.PolicyMatch;
import io.agentgateway.schemas.Role;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * The policies page and the editor ({@link PoliciesPage}) over stubbed {@link PolicyAdmin}, {@link WorkspaceDefaults},
 * {@link Backtests} and {@link PolicyTests}.
 */
class PoliciesPageTest {
    private static final String WS = "/workspaces/" + WORKSPACE;
    private static final String POLICY_ID = "7d1c2f9e-2b5b-4a0e-8f4e-0c8d5f1a2b3c";

    private final AdminPageTests pages = new AdminPageTests();
    private final PolicyAdmin policies = mock(PolicyAdmin.class);
    private final WorkspaceDefaults defaults = mock(WorkspaceDefaults.class);
    private final Backtests backtests = mock(Backtests.class);
    private final PolicyTests tests = mock(PolicyTests.class);
    private final WebTestClient browser = pages.console.bind(c -> ConsoleConfiguration.policies(
            new PoliciesPage(pages.admin, policies, defaults, backtests, tests)));

    PoliciesPageTest() {
        Map<String, String> decisions = new LinkedHashMap<>();
        decisions.put("low", "allow");
        decisions.put("medium", "allow");
        decisions.put("high", "require_approval");
        decisions.put("critical", "block");
        when(defaults.view(WORKSPACE)).thenReturn(Mono.just(new WorkspaceDefaults.View(decisions, null, "UTC")));
        when(policies.list(WORKSPACE)).thenReturn(Mono.just(List.of(new PolicyAdmin.PolicyView(POLICY_ID, "block deletes", 10,
                true, "block", null, null, null, Instant.parse("2030-01-01T00:00:00Z")))));
    }

    @Test
    void aViewerReadsThePoliciesInOrderWithoutControls() {
        pages.console.signedIn("viewer-1", Role.VIEWER);

        Document page = html(browser.get().uri(WS + "/policies").exchange().expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#policy-list tr[data-policy-id=" + POLICY_ID + "] .policy-name").text()).isEqualTo("block deletes");
        assertThat(page.select("#read-only")).hasSize(1);
        assertThat(page.select("#save-defaults")).isEmpty();
    }

    @Test
    void aDefaultTheApiRefusesIsShownAtItsInput() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(defaults.set(any(), eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(ApiException.badField("approvalTtl", "approvalTtl must be at most P366D")));

        Document page = html(browser.post().uri(WS + "/defaults").body(BodyInserters.fromFormData(form("approvalTtl", "P999D")))
                .exchange().expectStatus().isBadRequest().expectBody(String.class).returnResult());

        assertThat(page.select("#approvalTtl-error").text()).isEqualTo("approvalTtl must be at most P366D");
        assertThat(page.select("#approvalTtl").val()).isEqualTo("P999D");
    }

    @Test
    void aDraftTheApiRefusesStaysInTheEditorWithItsErrorAndIsNotSaved() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(policies.check(any(ObjectNode.class), any(UUID.class), anyBoolean()))
                .thenReturn(Mono.error(ApiException.badField("condition", "condition: line 1, column 6: undeclared reference to 'x'")));

        Document page = html(browser.post().uri(WS + "/policies/editor").body(BodyInserters.fromFormData(form("intent", "save",
                "name", "n", "priority", "10", "decision", "block", "condition", "true && x"))).exchange()
                .expectStatus().isBadRequest().expectBody(String.class).returnResult());

        assertThat(page.select("#condition-error").text()).contains("undeclared reference to 'x'");
        verify(policies, never()).save(any(), any(), any(), any());
    }

    @Test
    void aSavedDraftGoesToTheListOnceApplied() {
        pages.console.signedIn("owner-1", Role.OWNER);
        Policy checked = new Policy(POLICY_ID, "block deletes", 10, true, Decision.BLOCK, PolicyMatch.any(), null, null);
        when(policies.check(any(ObjectNode.class), eq(UUID.fromString(POLICY_ID)), eq(false))).thenReturn(Mono.just(checked));
        when(policies.save(any(), eq(WORKSPACE), eq(checked), anyString())).thenReturn(Mono.just(new Applied(8L)));

        browser.post().uri(WS + "/policies/editor").body(BodyInserters.fromFormData(form("intent", "save", "policyId", POLICY_ID,
                "name", "block deletes", "priority", "10", "decision", "block"))).exchange()
                .expectStatus().isSeeOther().expectHeader().location(WS + "/policies?saved=" + POLICY_ID);
        verify(pages.progress).awaitWorkspaceVersion(WORKSPACE, 8L);
    }

    @Test
    void theBacktestOfADraftIsShownBesideIt() {
        pages.console.signedIn("owner-1", Role.OWNER);
        when(policies.check(any(ObjectNode.class), any(UUID.class), anyBoolean())).thenReturn(Mono.just(
                new Policy(POLICY_ID, "n", 10, true, Decision.BLOCK, PolicyMatch.any(), null, null)));
        when(backtests.run(eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(new BacktestReport(
                WORKSPACE.toString(), Instant.parse("2030-01-01T00:00:00Z"), Instant.parse("2030-01-08T00:00:00Z"), 1,
                new BacktestReport.Totals(40, 3, 37, 0), List.of(new BacktestReport.Transition(Decision.ALLOW, Decision.BLOCK, 3)),
                List.of(), List.of(), List.of(), List.of(), new BacktestReport.History("gateway.events.v1", 0, 0, 40, 40, 40, 0, 0, 0))));

        Document page = html(browser.post().uri(WS + "/policies/editor").body(BodyInserters.fromFormData(form("intent", "backtest",
                "policyId", POLICY_ID, "name", "n", "priority", "10", "decision", "block", "days", "7"))).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult());

        assertThat(page.select("#backtest-result #bt-changed").text()).isEqualTo("3");
    }

    @Test
    void aReviewerMayNotOpenTheEditor() {
        pages.console.signedIn("reviewer-1", Role.REVIEWER);
        browser.get().uri(WS + "/policies/new").exchange().expectStatus().isForbidden();
    }
}
