package io.agentgateway.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The embedded default takes no {@code --key=value} arguments: until now they were ignored without a word, so
 * {@code --gateway.decision.linger-ms=0} ran with the default linger. Anything but a command is refused, saying how
 * settings are given.
 */
class GatewayLauncherArgumentsTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void aSpringStyleArgumentIsRefusedWithoutEchoingItsValue() {
        int exit = GatewayLauncher.notACommand("--gateway.secrets.key=c2VjcmV0", print(out), print(err));

        assertThat(exit).isEqualTo(2);
        assertThat(text(err)).startsWith("Unknown command or argument '--gateway.secrets.key=...'.")
                .contains("-Dgateway.decision.linger-ms=0").doesNotContain("c2VjcmV0");
        assertThat(text(out)).isEmpty();
    }

    @Test
    void helpPrintsTheCommandsAndExitsZero() {
        int exit = GatewayLauncher.notACommand("--help", print(out), print(err));

        assertThat(exit).isZero();
        assertThat(text(out)).contains("bootstrap", "rebuild", "export", "backtest", "redrive-notifications", "broker", "postgres");
        assertThat(text(err)).isEmpty();
    }

    private static PrintStream print(ByteArrayOutputStream bytes) {
        return new PrintStream(bytes, true, StandardCharsets.UTF_8);
    }

    private static String text(ByteArrayOutputStream bytes) {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
