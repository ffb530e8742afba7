package io.agentgateway.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one parser of the launcher's commands (bootstrap, rebuild, redrive-notifications, export, backtest). */
class OptionArgumentsTest {
    private static final Set<String> VALUED = Set.of("--workspace", "--timeout", "--db-password");
    private static final Set<String> FLAGS = Set.of("--dry-run");

    private static OptionArguments parse(String... args) {
        return OptionArguments.parse(List.of(args), VALUED, FLAGS);
    }

    @Test
    void takesValuesInBothFormsAndFlags() {
        OptionArguments options = parse("--workspace", "w1", "--timeout=30", "--dry-run", "--db-password=--starts-with-dashes");
        assertThat(options.value("--workspace")).contains("w1");
        assertThat(options.seconds("--timeout")).contains(Duration.ofSeconds(30));
        assertThat(options.value("--db-password")).contains("--starts-with-dashes");
        assertThat(options.flag("--dry-run")).isTrue();
        assertThat(parse().flag("--dry-run")).isFalse();
    }

    @Test
    void helpWinsOverWhateverElseWasTyped() {
        assertThat(OptionArguments.asksForHelp(List.of("--bogus", "--help"))).isTrue();
        assertThat(OptionArguments.asksForHelp(List.of("-h"))).isTrue();
        assertThat(OptionArguments.asksForHelp(List.of("--workspace", "w1"))).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "--bogus w1                       | unknown option --bogus",
            "--bogus=w1                       | unknown option --bogus",
            "stray                            | unexpected argument 'stray'",
            "--workspace w1 stray             | unexpected argument 'stray'",
            "--workspace                      | --workspace needs a value",
            "--workspace=                     | --workspace needs a value",
            "--workspace --dry-run            | --workspace needs a value",
            "--workspace a --workspace b      | --workspace is given twice",
            "--workspace=a --workspace=a      | --workspace is given twice",
            "--timeout 0                      | --timeout must be a whole number of seconds (1 or more), not '0'",
            "--timeout 1.5                    | --timeout must be a whole number of seconds (1 or more), not '1.5'",
    })
    void refusesWithOneLineForTheOperator(String args, String message) {
        assertThatThrownBy(() -> parse(args.trim().split(" +")).seconds("--timeout"))
                .isInstanceOf(CommandLineError.class).hasMessage(message).hasNoCause();
    }

    @Test
    void requiredNamesWhatIsMissing() {
        assertThatThrownBy(() -> parse("--dry-run").required("--workspace")).isInstanceOf(CommandLineError.class)
                .hasMessage("--workspace is required");
        assertThat(Arrays.asList(new CommandLineError("x").getStackTrace())).isEmpty();
    }
}
