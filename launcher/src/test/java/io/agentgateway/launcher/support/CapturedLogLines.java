package io.agentgateway.launcher.support;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/**
 * Every log line of every module while open (they share the root logger in this JVM), with the levels
 * opened as an operator chasing a problem would: root and Spring's web layer at DEBUG, the gateway's
 * own code at TRACE (and Reactor Netty, server and client, at DEBUG), so a secret logged at a low level is
 * caught too. Each line is its formatted message plus its exceptions' classes and messages.
 */
public final class CapturedLogLines implements AutoCloseable {
    private static final Map<String, Level> OPENED = Map.of(
            Logger.ROOT_LOGGER_NAME, Level.DEBUG, "org.springframework.web", Level.DEBUG,
            "reactor.netty", Level.DEBUG, "io.agentgateway", Level.TRACE);
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Map<Logger, Level> previous = new HashMap<>();

    public static CapturedLogLines start() {
        CapturedLogLines logs = new CapturedLogLines();
        logs.appender.setContext((LoggerContext) LoggerFactory.getILoggerFactory());
        logs.appender.start();
        logger(Logger.ROOT_LOGGER_NAME).addAppender(logs.appender);
        OPENED.forEach((name, level) -> {
            Logger logger = logger(name);
            logs.previous.put(logger, logger.getLevel());
            logger.setLevel(level);
        });
        return logs;
    }

    private static Logger logger(String name) {
        return (Logger) LoggerFactory.getLogger(name);
    }

    public List<String> lines() {
        return List.copyOf(appender.list).stream().map(e -> e.getFormattedMessage() + throwableText(e.getThrowableProxy())).toList();
    }

    /**
     * The lines a client's input must never cause: ERROR, or any line with a stack trace, from the loggers
     * that see client input (the gateway's HTTP edge and handlers, Spring's web layer, Reactor Netty, Netty).
     * Lines of other parts (the broker, the decision stream, the notifier) are left out: other tests'
     * background work in this JVM may log there meanwhile.
     */
    public List<String> clientInputProblems() {
        return List.copyOf(appender.list).stream()
                .filter(e -> e.getLevel().isGreaterOrEqual(Level.ERROR) || e.getThrowableProxy() != null && e.getLevel().isGreaterOrEqual(Level.INFO))
                .filter(e -> CLIENT_FACING.stream().anyMatch(e.getLoggerName()::startsWith))
                .map(e -> e.getLevel() + " " + e.getLoggerName() + ": " + e.getFormattedMessage() + throwableText(e.getThrowableProxy()))
                .toList();
    }

    private static final List<String> CLIENT_FACING = List.of("io.agentgateway.ingressapi", "org.springframework.web",
            "org.springframework.http", "org.springframework.boot.web", "reactor.netty", "io.netty");

    private static String throwableText(IThrowableProxy proxy) {
        StringBuilder text = new StringBuilder();
        for (IThrowableProxy p = proxy; p != null; p = p.getCause()) {
            text.append(' ').append(p.getClassName()).append(": ").append(p.getMessage());
        }
        return text.toString();
    }

    @Override
    public void close() {
        previous.forEach(Logger::setLevel);
        logger(Logger.ROOT_LOGGER_NAME).detachAppender(appender);
        appender.stop();
    }
}
