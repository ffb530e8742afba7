package io.agentgateway.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentgateway.launcher.EmbeddedGateway;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.launcher.support.GatewayHarness;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code signin-link} against a running gateway: the link it prints signs in once (a session cookie), then is spent;
 * bad arguments are exit 2, an unreachable database exit 1, each one line.
 */
class SignInLinkCommandTest {
    private static EmbeddedGateway gateway;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void start() {
        gateway = GatewayHarness.gateway();
        // the console's tables exist once the gateway issued its first link (the ingress migrates its schema on first use)
        gateway.consoleSignInLink("someone", null);
    }

    private int run(String... args) {
        return SignInLinkCommand.run(List.of(args), LauncherSettings.fromEnvironment(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void theLinkItPrintsSignsInOnce() throws Exception {
        String user = "link-user-" + UUID.randomUUID();
        int status = run("--user", user, "--url", gateway.baseUrl() + "/", "--jdbc-url", gateway.jdbcUrl(),
                "--db-user", gateway.postgresUser(), "--db-password", gateway.postgresPassword());
        assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
        String link = out.toString(StandardCharsets.UTF_8).strip();
        assertThat(link).startsWith(gateway.baseUrl() + "/signin/link?token=");

        HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> first = http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).isEqualTo(303);
        assertThat(first.headers().firstValue("set-cookie")).hasValueSatisfying(c -> assertThat(c).startsWith("agw_session=")
                .containsIgnoringCase("HttpOnly").contains("SameSite=Lax"));
        HttpResponse<String> again = http.send(HttpRequest.newBuilder(URI.create(link)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(again.body()).contains("already used");
    }

    @Test
    void badArgumentsAreExit2AndAnUnreachableDatabaseExit1() {
        assertThat(run("--ttl", "forever")).isEqualTo(2);
        assertThat(run("--url", "ftp://x")).isEqualTo(2);
        assertThat(run("--user", "a", "--user", "b")).isEqualTo(2);
        assertThat(run("--jdbc-url", "jdbc:postgresql://127.0.0.1:1/gateway")).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines()).allSatisfy(line -> assertThat(line).startsWith("signin-link: "));
    }
}
