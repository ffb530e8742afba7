package io.agentgateway.launcher.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/**
 * A command-line tool prints its own lines: without a Spring context nobody configures Logback, whose
 * default is every DEBUG line of the Kafka client on the console. Warnings of our own (a skipped event)
 * still show; the clients' connection retries (an unreachable broker) do not, the tool's error line
 * says it once.
 */
final class QuietLogging {
    private QuietLogging() {}

    static void apply() {
        if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext context) {
            context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(Level.WARN);
            context.getLogger("org.apache.kafka").setLevel(Level.ERROR);
            context.getLogger("org.flywaydb").setLevel(Level.ERROR);
        }
    }
}
