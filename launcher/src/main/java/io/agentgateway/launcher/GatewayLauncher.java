package io.agentgateway.launcher;

import io.agentgateway.launcher.cli.AuditVerifyCommand;
import io.agentgateway.launcher.cli.BacktestCommand;
import io.agentgateway.launcher.cli.BootstrapCommand;
import io.agentgateway.launcher.cli.CliLogging;
import io.agentgateway.launcher.cli.ClusterNodeCommands;
import io.agentgateway.launcher.cli.ExportCommand;
import io.agentgateway.launcher.cli.RebuildCommand;
import io.agentgateway.launcher.cli.RedriveNotificationsCommand;
import io.agentgateway.launcher.cli.SignInLinkCommand;
import io.agentgateway.launcher.cli.VerifyCommand;
import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar launcher/target/launcher-*-exec.jar}: the embedded default. Starts a real Kafka
 * broker and a real PostgreSQL in this process (or uses external ones named by
 * SPRING_KAFKA_BOOTSTRAP_SERVERS / SPRING_DATASOURCE_URL) and every gateway module, seeds a demo
 * workspace on first start, and runs until interrupted. With a command as first argument it runs
 * that instead: {@code rebuild} (the read models from the event log, {@link RebuildCommand}),
 * {@code backtest} (a candidate policy set against history, {@link BacktestCommand}) or {@code export}
 * (the audit trail, {@link ExportCommand}).
 */
public final class GatewayLauncher {
    private GatewayLauncher() {}

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0) {
            // operator commands against a gateway (running or not), each with its own exit code
            switch (args[0]) {
                case "rebuild" -> System.exit(RebuildCommand.run(List.of(args).subList(1, args.length)));
                case "export" -> System.exit(ExportCommand.run(List.of(args).subList(1, args.length)));
                case "audit-verify" -> System.exit(AuditVerifyCommand.run(List.of(args).subList(1, args.length)));
                case "verify" -> {
                    CliLogging.quiet();
                    System.exit(VerifyCommand.run(List.of(args).subList(1, args.length)));
                }
                case "redrive-notifications" -> System.exit(RedriveNotificationsCommand.run(List.of(args).subList(1, args.length)));
                case "bootstrap" -> {
                    CliLogging.quiet();
                    System.exit(BootstrapCommand.run(List.of(args).subList(1, args.length)));
                }
                case "signin-link" -> {
                    CliLogging.quiet();
                    System.exit(SignInLinkCommand.run(List.of(args).subList(1, args.length)));
                }
                case "broker" -> System.exit(ClusterNodeCommands.broker(List.of(args).subList(1, args.length)));
                case "postgres" -> System.exit(ClusterNodeCommands.postgres(List.of(args).subList(1, args.length)));
                case "backtest" -> {
                    CliLogging.quiet();
                    System.exit(BacktestCommand.run(List.of(args).subList(1, args.length)));
                }
                default -> System.exit(notACommand(args[0], System.out, System.err));
            }
        }
        LauncherSettings settings;
        EmbeddedGateway gateway;
        try {
            settings = LauncherSettings.fromEnvironment();
            gateway = EmbeddedGateway.start(settings);
        } catch (RuntimeException e) {
            // an operator needs the reason (a port in use, a bad variable), not a stack trace
            System.err.println("The gateway did not start: " + reasons(e));
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.close();
            stopped.countDown();
        }, "gateway-shutdown"));
        if (settings.seedDemo()) {
            DemoWorkspaceSeeder.seedOnce(gateway);
        }
        System.out.println("Agent action gateway running at " + gateway.baseUrl() + " (Ctrl-C to stop)");
        stopped.await();
    }

    static final String USAGE = """
            Usage: java -jar launcher-*-exec.jar [command]
              (no command)  run the embedded default gateway
              bootstrap     the first operator, workspace, owner and agent key of a running gateway
              rebuild       rebuild the read models from the event log
              export        export the audit trail (--evidence: with its Merkle log's proofs, for audit-verify)
              audit-verify  check an evidence export offline (entries, root, signature, consistency)
              verify        check a workspace's audit log in PostgreSQL against its signed checkpoints
              backtest      replay history against a candidate policy set
              redrive-notifications  send dead-lettered notifications again (once their channel works)
              signin-link   a one-time console sign-in link (for a gateway without an identity provider)
              broker        run one KRaft broker of a cluster
              postgres      run a PostgreSQL of a cluster
            Settings are environment variables (GATEWAY_DECISION_LINGERMS=0) or -D system properties
            (-Dgateway.decision.linger-ms=0) before -jar, not arguments: docs/configuration.md.
            """;

    /**
     * Anything but a command: help, or refused. The embedded default takes no {@code --key=value} arguments (its
     * modules read the environment and system properties); one silently ignored would run a setting the operator
     * believes changed.
     */
    static int notACommand(String argument, PrintStream out, PrintStream err) {
        if (List.of("help", "--help", "-h").contains(argument)) {
            out.print(USAGE);
            return 0;
        }
        // never the value: --gateway.secrets.key=... would leave the key in whatever collects stderr
        int equals = argument.indexOf('=');
        String shown = equals < 0 ? argument : argument.substring(0, equals) + "=...";
        err.println("Unknown command or argument '" + (shown.length() > 80 ? shown.substring(0, 80) + "..." : shown) + "'.");
        err.print(USAGE);
        return 2;
    }

    private static String reasons(Throwable e) {
        StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
                text.append(": ").append(cause.getMessage());
            }
        }
        return text.toString();
    }
}
