package io.agentgateway.launcher.cli;

/** A problem with what was typed (an option, a value, a file): reported as one line, never a stack trace. */
final class CommandLineError extends RuntimeException {
    CommandLineError(String message) {
        super(message, null, false, false);
    }
}
