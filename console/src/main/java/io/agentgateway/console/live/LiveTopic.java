package io.agentgateway.console.live;

import java.util.Locale;

/** What changed in a workspace, as the open pages are told it (never the change itself: they fetch what they show). */
public enum LiveTopic {
    /** An approval opened, was reviewed, expired, claimed, ran, failed or was cancelled. */
    APPROVALS,
    /** A new audit row (an evaluation, a kill-switch call, a limit). */
    AUDIT,
    /** The kill switch or a pause changed. */
    KILL_SWITCH;

    public String eventName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
