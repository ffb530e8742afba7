package io.agentgateway.console.admin;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import io.agentgateway.actiongate.connection.ReadModelProgress;
import io.agentgateway.adminapi.audit.ChangeHistory;
import io.agentgateway.console.web.ConsolePageClient;
import java.util.List;
import java.util.UUID;
import reactor.core.publisher.Mono;

/**
 * What the admin pages' fast tests share: a {@link ConsolePageClient} and {@link AdminPages} over the stubbed change history
 * and read-model progress (a change is shown at once).
 */
final class AdminPageTests {
    final ConsolePageClient console = new ConsolePageClient();
    final ChangeHistory history = mock(ChangeHistory.class);
    final ReadModelProgress progress = mock(ReadModelProgress.class);
    final AdminPages admin = new AdminPages(console.requests(), console.pages(), console.baseUrl(), progress, history);

    AdminPageTests() {
        when(history.recent(any(UUID.class), any(), anyInt())).thenReturn(Mono.just(List.of()));
        when(progress.awaitWorkspaceVersion(any(UUID.class), any())).thenReturn(Mono.empty());
    }
}
