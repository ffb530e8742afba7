package io.agentgateway.notifier;

import io.agentgateway.schemas.notification.NotificationRequested;

/**
 * The notifier reads the notifications topic twice, in two consumer groups, each handling its own kinds:
 * kill-switch alerts on the {@link #URGENT} lane, everything else on the {@link #ROUTINE} one. A flood of
 * approval requests (or a slow or failing channel retried on them) then queues behind itself only, never
 * in front of a kill-switch alert of any workspace. Records stay in order within each lane and workspace.
 */
public enum NotificationLane {
    /** {@code kill_switch} only. */
    URGENT,
    /** Every kind but {@code kill_switch}; reports unreadable records. */
    ROUTINE,
    /** One consumer for every kind (a listener used on its own). */
    ALL;

    boolean handles(String kind) {
        boolean killSwitch = NotificationRequested.KIND_KILL_SWITCH.equals(kind);
        return switch (this) {
            case URGENT -> killSwitch;
            case ROUTINE -> !killSwitch;
            case ALL -> true;
        };
    }

    /** Whether records that are not readable notifications are this lane's to report. */
    boolean reportsUnreadable() {
        return this != URGENT;
    }
}
