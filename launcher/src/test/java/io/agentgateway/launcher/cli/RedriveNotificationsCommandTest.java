package io.agentgateway.launcher.cli;

import static io.agentgateway.launcher.support.GatewayHarness.killSwitch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.agentgateway.launcher.support.GatewayHarness.TestWorkspace;
import io.agentgateway.launcher.support.GatewayHarness;
import io.agentgateway.launcher.support.LoopbackServer;
import io.agentgateway.schemas.deadletter.DeadLetterRedrive;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A kill-switch alert whose chat webhook failed every attempt ends on the dead-letter topic; once the webhook works
 * again the operator sends it again with {@code redrive-notifications}. The chat message arrives once, the email that
 * already went out is not sent twice, and a second redrive sends nothing (the notifier's ledger).
 */
class RedriveNotificationsCommandTest {

    @Test
    void aDeadLetteredKillSwitchAlertIsSentAgainOnceItsChannelWorks() throws Exception {
        TestWorkspace ws = GatewayHarness.newWorkspace();
        AtomicBoolean failing = new AtomicBoolean(true);
        AtomicInteger attempts = new AtomicInteger();
        AtomicInteger delivered = new AtomicInteger();
        try (LoopbackServer chat = LoopbackServer.start("failing-chat", false, exchange -> {
            exchange.getRequestBody().readAllBytes();
            attempts.incrementAndGet();
            if (failing.get()) {
                exchange.sendResponseHeaders(500, -1);
            } else {
                delivered.incrementAndGet();
                exchange.sendResponseHeaders(200, -1);
            }
            exchange.close();
        })) {
            assertThat(GatewayHarness.client().send("PUT", "/admin/v1/workspaces/" + ws.id() + "/notification-settings",
                    ws.ownerJwt(), Map.of("chatWebhookUrl", chat.baseUrl() + "/hooks/incoming", "emailEnabled", true))
                    .status()).isIn(200, 204);
            Instant before = Instant.now();
            assertThat(killSwitch(ws, "enable", null).status()).isEqualTo(200);

            String bootstrap = GatewayHarness.gateway().bootstrapServers();
            DeadLetterRedrive.Filter ours = new DeadLetterRedrive.Filter(Optional.of(before), Optional.of("kill_switch"),
                    Optional.of(ws.id()));
            // five attempts, 0.2 s doubling: about 3 s
            await().atMost(Duration.ofSeconds(60)).until(() ->
                    DeadLetterRedrive.run(bootstrap, ours, true, Duration.ofSeconds(10)).redriven().size() == 1);
            assertThat(GatewayHarness.mailTo(ws.ownerEmail())).as("the email went out at once").hasSize(1);
            assertThat(delivered).hasValue(0);
            int failedAttempts = attempts.get();

            assertThat(run("--bootstrap-servers", bootstrap, "--workspace", "not-a-workspace")).startsWith("2:");
            failing.set(false);
            String output = run("--bootstrap-servers", bootstrap, "--workspace", ws.id(), "--since", before.toString(),
                    "--kind", "kill_switch");
            assertThat(output).startsWith("0:").contains("sent again: ").contains("kill_switch workspace " + ws.id())
                    .contains("1 dead-lettered notification(s) sent again");

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(delivered).hasValue(1));
            // again: the ledger has the chat message as sent, the email too
            assertThat(run("--bootstrap-servers", bootstrap, "--workspace", ws.id())).startsWith("0:");
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(delivered).hasValue(1);
                assertThat(attempts).hasValue(failedAttempts + 1);
                assertThat(GatewayHarness.mailTo(ws.ownerEmail())).hasSize(1);
            });
        }
    }

    /** @return the exit code, a colon, then what the command printed (both streams) */
    private static String run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = RedriveNotificationsCommand.run(List.of(args), print, print);
        return exit + ":" + out.toString(StandardCharsets.UTF_8);
    }
}
