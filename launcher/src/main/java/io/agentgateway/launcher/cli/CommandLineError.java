package io.agentgateway.launcher.cli;

/**
 * A problem with what was typed (an option, a value, a file): reported as one line, never a stack trace. An
 * {@link IllegalArgumentException}, so a command's one catch of those reports its own checks and the parser's alike.
 */
final class CommandLineError extends IllegalArgumentException {
    CommandLineError(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        // printed as one line, never with a stack: none is taken
        return this;
    }
}
