package io.agentgateway.benchmark;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time from the JVM and from Linux /proc (another process: a PostgreSQL backend). */
final class CpuTime {
    private CpuTime() {}

    static double jvmSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    /** utime + stime of a process in ticks (USER_HZ, 100 per second on Linux), 0 if it is gone. */
    static long ticksOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name is in parentheses and may contain spaces; after it: state(0) ppid(1) ... utime(11) stime(12)
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
