package io.agentgateway.benchmark.measure;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Where the CPU of a run goes, sampled every 100 ms (threads and backends that end are kept at their
 * last value): the rebuild's reader and writer threads, the rest of this JVM (JIT compilers, GC, the
 * embedded broker serving the fetches, the idle gateway), and the rebuild's PostgreSQL backend. On a machine shared with
 * other work the wall-clock rate depends on the neighbours; CPU per event does not.
 */
public final class CpuSampler implements AutoCloseable {
    private static final double TICKS_PER_SECOND = 100.0;

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    /** CPU of the threads that existed at the start, at the start. */
    private final Map<Long, Long> baseline = new ConcurrentHashMap<>();
    /** CPU of every thread when last sampled. */
    private final Map<Long, Long> lastSeen = new ConcurrentHashMap<>();
    private final Map<Long, String> threadNames = new ConcurrentHashMap<>();
    private final Map<Long, Long> backendTicks = new ConcurrentHashMap<>();
    private final Connection db;
    private final String applicationName;
    private final double jvmAtStart = CpuTime.jvmSeconds();
    private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cpu-sampler");
        t.setDaemon(true);
        return t;
    });

    public CpuSampler(Connection db, String applicationName) {
        this.db = db;
        this.applicationName = applicationName;
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos > 0) {
                baseline.put(id, nanos);
            }
        }
        sampler.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info == null) {
                    continue;
                }
                long nanos = threads.getThreadCpuTime(info.getThreadId());
                if (nanos > 0) {
                    threadNames.put(info.getThreadId(), info.getThreadName());
                    lastSeen.put(info.getThreadId(), nanos);
                }
            }
            try (var statement = db.prepareStatement("select pid from pg_stat_activity where application_name = ?")) {
                statement.setString(1, applicationName);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        long pid = rows.getLong(1);
                        long ticks = CpuTime.ticksOf(pid);
                        if (ticks > 0) {
                            backendTicks.put(pid, ticks);
                        }
                    }
                }
            }
        } catch (Exception ignored) {
            // a thread or backend that ended between listing and reading
        }
    }

    /** CPU seconds per part since the start. */
    public Map<String, Double> seconds() {
        sample();
        sampler.shutdownNow();
        Map<String, Double> parts = new LinkedHashMap<>();
        double reader = 0;
        double writer = 0;
        for (Map.Entry<Long, Long> seen : lastSeen.entrySet()) {
            double spent = (seen.getValue() - baseline.getOrDefault(seen.getKey(), 0L)) / 1e9;
            String name = threadNames.getOrDefault(seen.getKey(), "");
            if (name.equals("main")) {
                reader += spent;
            } else if (name.startsWith("read-model-rebuild-writer")) {
                writer += spent;
            }
        }
        parts.put("rebuild reader thread (poll, parse, plan)", reader);
        parts.put("rebuild writer thread (JDBC)", writer);
        parts.put("rest of this JVM (JIT, GC, broker, idle gateway)", CpuTime.jvmSeconds() - jvmAtStart - reader - writer);
        parts.put("PostgreSQL backend of the rebuild",
                backendTicks.values().stream().mapToLong(Long::longValue).sum() / TICKS_PER_SECOND);
        return parts;
    }

    @Override
    public void close() {
        sampler.shutdownNow();
    }
}
