package io.agentgateway.benchmark.measure;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

/** CPU time from the JVM and from Linux /proc (another process: a PostgreSQL backend). */
public final class CpuTime {
    private CpuTime() {}

    public static double jvmSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime() / 1e9;
        }
        return Double.NaN;
    }

    /** utime + stime of a process in ticks (USER_HZ, 100 per second on Linux), 0 if it is gone. */
    public static long ticksOf(long pid) {
        return sumOfFields(pid, 2);
    }

    /** utime + stime + cutime + cstime: with the CPU of the children it has waited for (PostgreSQL's ended backends). */
    public static long ticksWithReapedChildrenOf(long pid) {
        return sumOfFields(pid, 4);
    }

    /** utime + stime from the text of a /proc stat file (a process's or a thread's). */
    public static long ticksIn(String stat) {
        return sumOfFields(stat, 2);
    }

    private static long sumOfFields(long pid, int count) {
        try {
            return sumOfFields(Files.readString(Path.of("/proc", Long.toString(pid), "stat")), count);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static long sumOfFields(String stat, int count) {
        // the command name is in parentheses and may contain spaces; after it: state(0) ppid(1) ...
        // utime(11) stime(12) cutime(13) cstime(14)
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long sum = 0;
        for (int i = 11; i < 11 + count; i++) {
            sum += Long.parseLong(fields[i]);
        }
        return sum;
    }
}
