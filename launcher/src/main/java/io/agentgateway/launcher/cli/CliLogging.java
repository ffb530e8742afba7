package io.agentgateway.launcher.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import org.slf4j.LoggerFactory;

/**
 * Logging for the command-line tools. Without Spring, Logback's fallback prints every Kafka client
 * DEBUG line to standard output, which would bury (and, for JSON, corrupt) the report: log lines go to
 * standard error only, and only errors ({@link #quiet()}) or also our own warnings, such as a skipped
 * event ({@link #ourWarnings()}). The clients' connection retries never show: the tools say once what
 * went wrong themselves.
 */
public final class CliLogging {
    private CliLogging() {}

    /** Errors only. */
    public static void quiet() {
        toStandardError(Level.ERROR);
    }

    /** Errors, and warnings of our own code (Kafka's and Flyway's only when they are errors). */
    public static void ourWarnings() {
        LoggerContext context = toStandardError(Level.WARN);
        if (context != null) {
            context.getLogger("org.apache.kafka").setLevel(Level.ERROR);
            context.getLogger("org.flywaydb").setLevel(Level.ERROR);
        }
    }

    private static LoggerContext toStandardError(Level level) {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return null;
        }
        context.reset();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%level %logger{30} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(level);
        root.addAppender(stderr);
        return context;
    }
}
