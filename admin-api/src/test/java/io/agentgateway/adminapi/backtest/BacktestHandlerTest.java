package io.agentgateway.adminapi.backtest;

import static io.agentgateway.adminapi.shared.HandlerTestClient.WORKSPACE;
import static io.agentgateway.adminapi.shared.HandlerTestClient.bearer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import io.agentgateway.adminapi.AdminRoutes;
import io.agentgateway.adminapi.shared.HandlerTestClient;
import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.httpedge.web.ApiException;
import io.agentgateway.schemas.Decision;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/** {@code POST /admin/v1/workspaces/{id}/backtests}: {@link BacktestHandler} over a stubbed {@link Backtests}. */
class BacktestHandlerTest {
    private static final String BACKTESTS = "/admin/v1/workspaces/" + WORKSPACE + "/backtests";
    private static final String BODY = "{\"policies\":[],\"from\":\"2030-01-01T00:00:00Z\"}";

    private final Backtests backtests = mock(Backtests.class);
    private final HandlerTestClient edge = new HandlerTestClient().administers(WORKSPACE, "owner-1");
    private final WebTestClient http = edge.bind(e -> AdminRoutes.backtests(new BacktestHandler(e.access(), e.bodies(), backtests)));

    @Test
    void theReportIsJsonUnlessTheClientPrefersATable() {
        when(backtests.run(eq(WORKSPACE), any(ObjectNode.class), anyString())).thenReturn(Mono.just(report()));

        http.post().uri(BACKTESTS).header("Authorization", bearer("owner-1")).bodyValue(BODY).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody()
                .jsonPath("$.ok").isEqualTo(true)
                .jsonPath("$.totals.changed").isEqualTo(1)
                .jsonPath("$.transitions[0].from").isEqualTo("allow");

        String table = http.post().uri(BACKTESTS).header("Authorization", bearer("owner-1"))
                .accept(MediaType.TEXT_PLAIN, MediaType.APPLICATION_JSON).bodyValue(BODY).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(table).startsWith("Back-test of workspace " + WORKSPACE).contains("allow", "block");
    }

    @Test
    void anotherBackTestRunningIs429AsJsonWhateverTheClientPrefers() {
        when(backtests.run(eq(WORKSPACE), any(ObjectNode.class), anyString()))
                .thenReturn(Mono.error(new ApiException(HttpStatus.TOO_MANY_REQUESTS, Backtests.BUSY)));

        http.post().uri(BACKTESTS).header("Authorization", bearer("owner-1")).accept(MediaType.TEXT_PLAIN).bodyValue(BODY)
                .exchange()
                .expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
                .expectBody().jsonPath("$.error").isEqualTo("Another back-test is running; try again later");
    }

    @Test
    void onlyAnAdminOrOwnerRunsOne() {
        http.post().uri(BACKTESTS).header("Authorization", bearer("viewer-1")).bodyValue(BODY).exchange()
                .expectStatus().isForbidden();
        verify(backtests, never()).run(any(), any(), any());
    }

    private static BacktestReport report() {
        return new BacktestReport(WORKSPACE.toString(), Instant.parse("2030-01-01T00:00:00Z"), Instant.parse("2030-01-02T00:00:00Z"),
                1, new BacktestReport.Totals(3, 1, 2, 0),
                List.of(new BacktestReport.Transition(Decision.ALLOW, Decision.BLOCK, 1)), List.of(), List.of(), List.of(),
                List.of(), new BacktestReport.History("gateway.events.v1", 0, 0, 10, 10, 3, 0, 0, 0));
    }
}
