package io.agentgateway.launcher.cli;

import io.agentgateway.backtest.BacktestReport;
import io.agentgateway.backtest.BacktestRequest;
import io.agentgateway.backtest.BacktestTable;
import io.agentgateway.backtest.Backtester;
import io.agentgateway.backtest.EventLogTimeoutException;
import io.agentgateway.backtest.EventLogUnavailableException;
import io.agentgateway.adminapi.api.AdminApiRules;
import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.schemas.Policy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * {@code java -jar launcher-*-exec.jar backtest --workspace <id> --policies <file.json> --from <ISO>
 * [--to <ISO>] [--format table|json] [--bootstrap-servers host:port] [--timeout PT10M]}: the admin
 * API's back-test from a terminal, reading the event log directly. The policies file holds the
 * candidate set as the API takes it: an array of policy bodies, or {@code {"policies": [...]}}.
 *
 * <p>Exit codes: 0 the report was printed; 3 the report was printed but the policies that were live
 * did not reproduce every recorded decision (a bug the report lists); 1 the log could not be read;
 * 2 bad arguments or a bad policies file. Problems are one line on standard error.
 */
public final class BacktestCommand {
    static final int OK = 0;
    static final int LOG_UNREADABLE = 1;
    static final int BAD_INPUT = 2;
    static final int NOT_REPRODUCED = 3;
    static final String USAGE = """
            usage: backtest --workspace <workspace id> --policies <file.json> --from <ISO-8601>
                            [--to <ISO-8601>, default now] [--format table|json, default table]
                            [--bootstrap-servers host:port, default SPRING_KAFKA_BOOTSTRAP_SERVERS or the
                             embedded default's 127.0.0.1:29092] [--timeout <ISO-8601 duration>, default PT10M]
            The policies file: a JSON array of policy bodies as POST /admin/v1/workspaces/{id}/policies takes
            them (an "id" may be given), or {"policies": [...]}.""";
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final int EXAMPLES = 5;

    private BacktestCommand() {}

    public static int run(List<String> args) {
        return run(args, System.out, System.err);
    }

    /** As {@link #run(List)}, writing the report to {@code out} and problems to {@code err}. */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        if (OptionArguments.asksForHelp(args)) {
            out.println(USAGE);
            return OK;
        }
        try {
            BacktestOptions options = BacktestOptions.parse(args);
            List<Policy> candidate = candidate(options);
            BacktestRequest request = request(options, candidate);
            Backtester backtester = new Backtester(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(options)),
                    new Backtester.Limits(min(CONNECT_TIMEOUT, options.timeout()), options.timeout(), EXAMPLES));
            BacktestReport report = backtester.run(request);
            out.print(options.format() == BacktestOptions.Format.JSON
                    ? AdminApiRules.responseJson(report) + System.lineSeparator()
                    : BacktestTable.render(report));
            out.flush();
            return report.totals().mismatches() == 0 ? OK : NOT_REPRODUCED;
        } catch (CommandLineError e) {
            err.println("backtest: " + e.getMessage() + " (see --help)");
            return BAD_INPUT;
        } catch (EventLogUnavailableException | EventLogTimeoutException e) {
            err.println("backtest: " + e.getMessage());
            return LOG_UNREADABLE;
        }
    }

    private static List<Policy> candidate(BacktestOptions options) {
        byte[] file;
        try {
            file = Files.readAllBytes(options.policiesFile());
        } catch (NoSuchFileException e) {
            throw new CommandLineError("cannot read --policies " + options.policiesFile() + ": no such file");
        } catch (IOException e) {
            throw new CommandLineError("cannot read --policies " + options.policiesFile() + ": " + e.getMessage());
        }
        try {
            return AdminApiRules.candidatePolicies(file, options.policiesFile().toString());
        } catch (AdminApiRules.InvalidInputException e) {
            // the policy API's own rules and texts, so a file that passes here is one the API takes
            throw new CommandLineError(e.getMessage());
        }
    }

    private static BacktestRequest request(BacktestOptions options, List<Policy> candidate) {
        try {
            return new BacktestRequest(options.workspaceId(), candidate, options.from(), options.to().orElseGet(Instant::now));
        } catch (IllegalArgumentException e) {
            throw new CommandLineError(e.getMessage());
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static String bootstrapServers(BacktestOptions options) {
        if (options.bootstrapServers().isPresent()) {
            return options.bootstrapServers().get();
        }
        try {
            LauncherSettings settings = LauncherSettings.fromEnvironment();
            return settings.externalKafka().orElse("127.0.0.1:" + settings.kafkaPort());
        } catch (IllegalArgumentException e) {
            throw new CommandLineError(e.getMessage());
        }
    }
}
