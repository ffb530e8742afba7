package io.agentgateway.gatewayclient;

import java.util.ArrayList;
import java.util.List;

/**
 * The decisions an HTTP exchange is answered with, while its answer is still being written. An exchange that puts an
 * instance in its Reactor context under {@link #CONTEXT_KEY} has the in-flight journal entries of its evaluations
 * released only once the answer was written ({@link #written()}: the bytes handed to the operating system, which
 * delivers them even if this process dies the next instant), and its evaluations reported as reaching nobody (499)
 * when the answer was lost ({@link #lost()}: the caller hung up, the write failed).
 *
 * <p>Without it the entry is released when the reply is handed to the handler, before the answer is mapped, encoded
 * and written: a process killed in between (on a loaded machine a thread can be descheduled there for milliseconds,
 * with a burst of replies waiting behind it) left those decisions recorded as delivered, though their callers saw
 * only a dropped connection. The window that remains is the other way round and microseconds long: a process killed
 * between the write and the release has a delivered decision reported as reaching nobody.
 *
 * <p>Only for an exchange whose own response carries the decision (evaluate-action): where the decision's effect is
 * something else (a call forwarded upstream, an MCP stream) the entry is released as the reply is handed on, as before.
 */
public final class AnswerWrites {
    /** The Reactor context key under which an exchange's instance reaches {@link CommandGateway#send}. */
    public static final Class<AnswerWrites> CONTEXT_KEY = AnswerWrites.class;

    private record Held(Runnable written, Runnable lost) {}

    private final List<Held> held = new ArrayList<>();
    /** null while the answer is being written; then whether it was written. */
    private Boolean outcome;

    /** A reply handed on ({@link CommandGateway} does): what to do once the answer is written, or lost. */
    public void hold(Runnable onWritten, Runnable onLost) {
        Boolean done;
        synchronized (this) {
            done = outcome;
            if (done == null) {
                held.add(new Held(onWritten, onLost));
                return;
            }
        }
        // the exchange ended before this reply was handed on: it cannot be part of the answer
        (done ? onWritten : onLost).run();
    }

    /** The answer was written: every decision in it reached its caller. */
    public void written() {
        finish(true);
    }

    /** The answer was not written (the caller hung up, the connection failed): its decisions reached nobody. */
    public void lost() {
        finish(false);
    }

    private void finish(boolean wasWritten) {
        List<Held> now;
        synchronized (this) {
            if (outcome != null) {
                return;
            }
            outcome = wasWritten;
            now = List.copyOf(held);
            held.clear();
        }
        now.forEach(h -> (wasWritten ? h.written() : h.lost()).run());
    }
}
