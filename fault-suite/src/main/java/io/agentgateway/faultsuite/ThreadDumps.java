package io.agentgateway.faultsuite;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A diagnosis aid ({@code -Dfaults.threadDumps=true}): during each fault, every 2 s, a thread dump of every gateway
 * service process that is alive, so a run shows where a client waits while nothing is decided (a send blocked on
 * metadata, a commit on a dead node). Each dump is the JVM's own (SIGQUIT), written with its time into the process's
 * log: a {@code jcmd} per process and dump would be a JVM start each, a core's worth of load on this machine.
 */
final class ThreadDumps implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    private ThreadDumps(LocalCluster cluster) {
        thread = new Thread(() -> {
            while (running) {
                List<ClusterProcess> services = new ArrayList<>(cluster.decisionStreams);
                services.addAll(cluster.ingresses);
                services.add(cluster.projector);
                services.add(cluster.notifier);
                for (ClusterProcess service : services) {
                    long pid = service.pid();
                    if (pid > 0) {
                        dump(pid);
                    }
                }
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "thread-dumps");
        thread.setDaemon(true);
    }

    static ThreadDumps start(LocalCluster cluster) {
        ThreadDumps dumps = new ThreadDumps(cluster);
        dumps.thread.start();
        return dumps;
    }

    private static void dump(long pid) {
        try {
            Process signal = new ProcessBuilder("kill", "-QUIT", "" + pid).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!signal.waitFor(10, TimeUnit.SECONDS)) {
                signal.destroyForcibly();
            }
        } catch (IOException e) {
            // no kill command: no dumps
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
