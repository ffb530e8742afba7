package io.agentgateway.console.approvals;

/** Time left, in words a reviewer reads at a glance. */
public final class Durations {
    private Durations() {}

    public static String left(long seconds) {
        if (seconds <= 0) {
            return "expired";
        }
        long days = seconds / 86_400;
        long hours = seconds % 86_400 / 3_600;
        long minutes = seconds % 3_600 / 60;
        long secs = seconds % 60;
        if (days > 0) {
            return days + " d " + hours + " h";
        }
        if (hours > 0) {
            return hours + " h " + minutes + " min";
        }
        if (minutes > 0) {
            return minutes + " min " + secs + " s";
        }
        return secs + " s";
    }
}
