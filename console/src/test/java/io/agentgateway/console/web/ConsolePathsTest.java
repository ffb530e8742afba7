package io.agentgateway.console.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Where a sign-in may send the browser afterwards: only a path of this site, never another host. */
class ConsolePathsTest {

    @ParameterizedTest
    @ValueSource(strings = {"/", "/audit?workspace=7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37&agentId=bot-1",
            "/approvals/7d4f9e2a-3b1c-4e8f-9a6d-0c5b2e1f4a37/5cd89fcd-dacf-339b-931a-d65e62942c1d"})
    void aPathOfThisSiteIsKept(String next) {
        assertThat(ConsolePaths.safeReturn(next)).isEqualTo(next);
    }

    @ParameterizedTest
    @ValueSource(strings = {"//evil.example/", "/\\evil.example", "https://evil.example/", "javascript:alert(1)",
            "evil", "/signin/start", "/signout", "/a b", "/<script>", ""})
    void anythingElseGoesHome(String next) {
        assertThat(ConsolePaths.safeReturn(next)).isEqualTo("/");
    }

    @Test
    void nullGoesHome() {
        assertThat(ConsolePaths.safeReturn(null)).isEqualTo("/");
    }

    @Test
    void theApiPathsAreNotTheConsoles() {
        assertThat(ConsolePaths.isConsole("/admin/v1/workspaces")).isFalse();
        assertThat(ConsolePaths.isConsole("/functions/v1/evaluate-action")).isFalse();
        assertThat(ConsolePaths.isConsole("/approvals/x/y")).isTrue();
        assertThat(ConsolePaths.isConsole("/")).isTrue();
    }
}
