package io.agentgateway.launcher.cli;

import io.agentgateway.launcher.LauncherSettings;
import io.agentgateway.schemas.deadletter.DeadLetterRedrive;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/** The arguments of {@code redrive-notifications}; Kafka defaults to the launcher's environment, else the embedded default. */
record RedriveOptions(String bootstrapServers, DeadLetterRedrive.Filter filter, boolean dryRun, Duration timeout) {
    static final String USAGE = """
            Usage: java -jar launcher/target/launcher-0.1.0-SNAPSHOT-exec.jar redrive-notifications [options]

            Sends dead-lettered notifications (gateway.notifications.dlt.v1) again, once their channel works again
            (the mail relay back, the chat webhook fixed). The running notifier delivers them through its ledger:
            a channel that already went out (or may have) is not sent again, only a failed one, so running this
            twice sends nothing twice. Lists each one it sends.

              --bootstrap-servers HOST:PORT  Kafka (default: SPRING_KAFKA_BOOTSTRAP_SERVERS, else the embedded
                                             default's 127.0.0.1:29092 or GATEWAY_KAFKA_PORT)
              --since TIME                   only those dead-lettered at or after TIME (ISO-8601, 2026-11-28T02:00:00Z)
              --kind KIND                    only this kind (kill_switch, approval_requested, ...)
              --workspace ID                 only this workspace's
              --dry-run                      list them, send nothing
              --timeout SECONDS              how long Kafka may take to answer (default 30)
              --help                         this text
            """;

    /** @throws IllegalArgumentException with a message for the operator */
    static RedriveOptions parse(List<String> args, LauncherSettings environment) {
        OptionArguments options = OptionArguments.parse(args,
                Set.of("--bootstrap-servers", "--since", "--kind", "--workspace", "--timeout"), Set.of("--dry-run"));
        DeadLetterRedrive.Filter filter = new DeadLetterRedrive.Filter(
                options.value("--since").map(RedriveOptions::instant), options.value("--kind"),
                options.value("--workspace").map(RedriveOptions::workspaceId));
        return new RedriveOptions(options.value("--bootstrap-servers").orElse(environment.kafkaBootstrapServers()), filter,
                options.flag("--dry-run"), options.seconds("--timeout").orElse(Duration.ofSeconds(30)));
    }

    private static Instant instant(String value) {
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--since must be an ISO-8601 time such as 2026-11-28T02:00:00Z, not '"
                    + value + "'");
        }
    }

    private static String workspaceId(String value) {
        try {
            return UUID.fromString(value).toString();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--workspace must be a workspace id (a UUID), not '" + value + "'");
        }
    }

    Optional<String> describeFilter() {
        String described = String.join(", ", Stream.of(
                        filter.since().map(t -> "since " + t), filter.kind().map(k -> "kind " + k),
                        filter.workspaceId().map(w -> "workspace " + w))
                .flatMap(Optional::stream).toList());
        return described.isEmpty() ? Optional.empty() : Optional.of(described);
    }
}
