package io.agentgateway.projector.rebuild;

import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The one thread that uses the rebuild's database connection, so that reading and parsing the next
 * events overlaps with PostgreSQL writing the previous ones (on two cores, the replay then runs at the
 * pace of the slower side instead of the sum of both). Tasks run in submission order; at most a few wait,
 * so the reader cannot run ahead by more than a few polls. A failed task fails the next submit or drain.
 */
final class WriterThread implements AutoCloseable {
    /** A piece of work on the connection. */
    interface SqlTask {
        void run() throws SQLException;
    }

    private static final int MAX_QUEUED = 3;

    private final ExecutorService thread = Executors.newSingleThreadExecutor(runnable -> {
        Thread t = new Thread(runnable, "read-model-rebuild-writer");
        t.setDaemon(true);
        return t;
    });
    private final Deque<Future<?>> queued = new ArrayDeque<>();

    /** Queues a task, first waiting while too many are queued. */
    void submit(SqlTask task) throws SQLException {
        while (queued.size() >= MAX_QUEUED) {
            await(queued.removeFirst());
        }
        queued.addLast(thread.submit(() -> {
            task.run();
            return null;
        }));
    }

    /** Waits until every queued task ran. */
    void drain() throws SQLException {
        while (!queued.isEmpty()) {
            await(queued.removeFirst());
        }
    }

    /** Runs a task after the queued ones and waits for it. */
    void runAndWait(SqlTask task) throws SQLException {
        submit(task);
        drain();
    }

    private static void await(Future<?> task) throws SQLException {
        try {
            task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RebuildException("interrupted", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof SQLException sql) {
                throw sql;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** Stops the thread once what runs has finished, so the connection is the caller's again. */
    @Override
    public void close() {
        queued.forEach(task -> task.cancel(false));
        thread.shutdown();
        try {
            if (!thread.awaitTermination(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the rebuild's writer did not stop");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
