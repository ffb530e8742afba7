package io.agentgateway.notifier;

import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * At most {@code gateway.notifier.approval-limit} approval-request messages per workspace within
 * {@code approval-window}: one agent key opening a thousand approvals must not send a thousand emails.
 * The last message sent one by one says that more will be summed up; the approval requests beyond the
 * limit are not sent one by one but counted, and when the window ends one digest goes out (the same
 * channels and recipients, the count, the first {@value #DIGEST_EXAMPLES} requests, and where the pending
 * list is). Every approval stays in the admin API's pending list whatever is sent.
 *
 * <p>Windows are kept per notifier instance and in memory (a workspace's notifications all reach the same
 * consumer); after a restart a workspace starts a new window, and a digest that was due is not sent
 * (the requests it would have counted are still pending in the API). Digests go through the delivery
 * ledger like every notification, under an id derived from the workspace and the window.
 */
public class ApprovalNotificationThrottle implements AutoCloseable {
    /** A notifier-made message summing up approval requests that were not sent one by one; never on the topic. */
    public static final String KIND_DIGEST = "approval_digest";
    static final int DIGEST_EXAMPLES = 20;
    private static final Logger log = LoggerFactory.getLogger(ApprovalNotificationThrottle.class);

    private final int limit;
    private final Duration window;
    private final Clock clock;
    private final NotificationDispatcher dispatcher;
    private final DeliveryMetrics metrics;
    private final Map<String, Window> windows = new HashMap<>();
    private final ScheduledExecutorService digests;

    private ApprovalNotificationThrottle(int limit, Duration window, Clock clock, NotificationDispatcher dispatcher,
                                         DeliveryMetrics metrics, boolean scheduled) {
        this.limit = limit;
        this.window = window;
        this.clock = clock;
        this.dispatcher = dispatcher;
        this.metrics = metrics;
        this.digests = scheduled ? Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "notifier-approval-digests");
            thread.setDaemon(true);
            return thread;
        }) : null;
        if (digests != null) {
            long every = Math.max(100, Math.min(window.toMillis() / 4, 1_000));
            digests.scheduleWithFixedDelay(this::sendDueDigests, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Sends digests of ended windows on a thread of its own. */
    public static ApprovalNotificationThrottle start(int limit, Duration window, Clock clock,
                                                     NotificationDispatcher dispatcher, DeliveryMetrics metrics) {
        return new ApprovalNotificationThrottle(limit, window, clock, dispatcher, metrics, limit > 0);
    }

    /** Lets every notification through. */
    public static ApprovalNotificationThrottle unlimited() {
        return new ApprovalNotificationThrottle(0, Duration.ofMinutes(1), Clock.systemUTC(), null, null, false);
    }

    /** The notification to deliver now (perhaps with a note added), or empty when it is counted for a digest. */
    public Optional<NotificationRequested> admit(NotificationRequested notification) {
        if (limit == 0 || !NotificationRequested.KIND_APPROVAL_REQUESTED.equals(notification.kind())
                || notification.workspaceId() == null) {
            return Optional.of(notification);
        }
        Window due = null;
        Optional<NotificationRequested> admitted;
        synchronized (windows) {
            Instant now = clock.instant();
            Window current = windows.get(notification.workspaceId());
            if (current != null && !now.isBefore(current.end)) {
                windows.remove(notification.workspaceId());
                due = current.suppressed > 0 ? current : null;
                current = null;
            }
            if (current == null) {
                current = new Window(notification.workspaceId(), now, now.plus(window));
                windows.put(notification.workspaceId(), current);
            }
            if (current.sent < limit) {
                current.sent++;
                admitted = Optional.of(current.sent == limit ? withLastNote(notification, current) : notification);
            } else {
                current.count(notification);
                metrics.approvalHeldForDigest();
                admitted = Optional.empty();
            }
        }
        if (due != null) {
            sendDigest(due);
        }
        return admitted;
    }

    /** Digests of every window that has ended (the scheduler's task; public for tests with a fixed clock). */
    public void sendDueDigests() {
        List<Window> due = new ArrayList<>();
        synchronized (windows) {
            Instant now = clock.instant();
            for (Iterator<Window> it = windows.values().iterator(); it.hasNext(); ) {
                Window w = it.next();
                if (!now.isBefore(w.end)) {
                    it.remove();
                    if (w.suppressed > 0) {
                        due.add(w);
                    }
                }
            }
        }
        due.forEach(this::sendDigest);
    }

    private void sendDigest(Window w) {
        NotificationRequested digest = w.digest(limit, window, clock.instant());
        try {
            dispatcher.deliver(digest);
            metrics.approvalDigestSent();
        } catch (RuntimeException e) {
            // no retry: the requests it counts are in the pending list, and the next window has its own digest
            log.warn("approval digest {} of workspace {} ({} requests) was not delivered: {}", digest.notificationId(),
                    w.workspaceId, w.suppressed, e.getMessage());
        }
    }

    private NotificationRequested withLastNote(NotificationRequested n, Window w) {
        String note = "This is approval request " + limit + " of this workspace within " + describe(window)
                + ": further ones until " + w.end + " are not sent one by one but summed up in one message then.";
        String text = n.text() == null || n.text().isBlank() ? note : n.text().strip() + "\n\n" + note;
        return new NotificationRequested(n.schemaVersion(), n.notificationId(), n.workspaceId(), n.correlationId(),
                n.kind(), n.occurredAt(), n.subject(), text, n.emailTo(), n.sealedChatWebhookUrl(), n.details());
    }

    static String describe(Duration duration) {
        long seconds = duration.toSeconds();
        if (duration.toMillis() % 1000 != 0 || seconds == 0) {
            return duration.toMillis() + " ms";
        }
        if (seconds % 3600 == 0) {
            return plural(seconds / 3600, "hour");
        }
        return seconds % 60 == 0 ? plural(seconds / 60, "minute") : plural(seconds, "second");
    }

    private static String plural(long n, String unit) {
        return n + " " + unit + (n == 1 ? "" : "s");
    }

    @Override
    public void close() {
        if (digests != null) {
            digests.shutdownNow();
        }
    }

    /** One workspace's current window: how many were sent, and what was held back. */
    private static final class Window {
        private final String workspaceId;
        private final Instant start;
        private final Instant end;
        private int sent;
        private int suppressed;
        private final List<String> examples = new ArrayList<>();
        private NotificationRequested last;

        Window(String workspaceId, Instant start, Instant end) {
            this.workspaceId = workspaceId;
            this.start = start;
            this.end = end;
        }

        void count(NotificationRequested n) {
            suppressed++;
            last = n;
            if (examples.size() < DIGEST_EXAMPLES) {
                ApprovalRequestNotice.of(n).ifPresent(notice -> examples.add(notice.tool() + " " + notice.action()
                        + " (" + notice.riskLevel() + " risk" + (notice.agentId() == null ? "" : ", agent " + notice.agentId())
                        + "): approval " + notice.approvalRequestId()));
            }
        }

        NotificationRequested digest(int limit, Duration window, Instant now) {
            String name = last.details() == null ? null : last.details().get("workspaceName");
            String workspace = name == null || name.isBlank() ? workspaceId : name;
            StringBuilder text = new StringBuilder();
            text.append(suppressed).append(suppressed == 1 ? " more approval request" : " more approval requests")
                    .append(" of workspace ").append(workspace).append(" arrived between ").append(start).append(" and ")
                    .append(end).append(" and were not sent one by one (at most ").append(limit).append(" per ")
                    .append(describe(window)).append("). Each waits for a review in the pending list.");
            if (!examples.isEmpty()) {
                text.append("\n\n").append(examples.size() < suppressed ? "The first " + examples.size() + ":" : "They are:");
                examples.forEach(line -> text.append("\n  - ").append(line));
            }
            Map<String, String> details = new LinkedHashMap<>();
            details.put("workspaceName", workspace);
            details.put("approvalRequests", Integer.toString(suppressed));
            details.put("windowStart", start.toString());
            details.put("windowEnd", end.toString());
            String id = UUID.nameUUIDFromBytes(("approval-digest:" + workspaceId + ":" + start)
                    .getBytes(StandardCharsets.UTF_8)).toString();
            return new NotificationRequested(NotificationRequested.CURRENT_VERSION, id, workspaceId, null, KIND_DIGEST, now,
                    suppressed + " more approval requests in workspace " + workspace, text.toString(), last.emailTo(),
                    last.sealedChatWebhookUrl(), details);
        }
    }
}
