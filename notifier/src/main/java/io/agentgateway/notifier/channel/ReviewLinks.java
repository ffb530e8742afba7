package io.agentgateway.notifier.channel;

import io.agentgateway.gatewayconfig.PublicBaseUrls;
import io.agentgateway.notifier.ApprovalNotificationThrottle;
import io.agentgateway.schemas.notification.ApprovalRequestNotice;
import io.agentgateway.schemas.notification.NotificationRequested;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How to review an approval, for the message of an {@code approval_requested} notification: first the approval's
 * page in the console ({@code /approvals/<workspace>/<approval>}: what will run, approve or reject, the timeline),
 * then for automation the admin API's approve and reject URLs (POST, user JWT of a reviewer, admin or owner, optional
 * {@code {"reason": ...}}) and the list of pending approvals, under the gateway's public address
 * ({@code gateway.notifier.public-base-url}). Without that address the paths alone are shown.
 *
 * <p>The ids go into a URL, so only well-formed UUIDs do: anything else in a notification gets no
 * links rather than a path someone else shaped.
 */
public final class ReviewLinks {
    private static final Pattern UUID = Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    private final String baseUrl;

    private ReviewLinks(String baseUrl) {
        this.baseUrl = baseUrl;
    }

    /** Paths only: for a notifier that was not told where the gateway is reachable. */
    public static ReviewLinks pathsOnly() {
        return new ReviewLinks("");
    }

    /**
     * @param publicBaseUrl absolute http(s) URL without query or fragment (a trailing slash is dropped);
     *                      null or blank for {@link #pathsOnly()}
     * @throws IllegalArgumentException when it is not such a URL ({@link PublicBaseUrls})
     */
    public static ReviewLinks under(String publicBaseUrl) {
        String url = PublicBaseUrls.normalized(publicBaseUrl, "gateway.notifier.public-base-url");
        return url == null ? pathsOnly() : new ReviewLinks(url);
    }

    /** The lines telling a reviewer how to act on {@code notification}; empty when it is no approval request. */
    public List<String> lines(NotificationRequested notification) {
        if (ApprovalNotificationThrottle.KIND_DIGEST.equals(notification.kind())) {
            return isUuid(notification.workspaceId())
                    ? List.of("How to review: the console's approvals inbox, or the admin API (your user JWT as Bearer token):",
                            "Console: " + baseUrl + "/",
                            "Pending approvals: GET " + baseUrl + "/admin/v1/workspaces/" + notification.workspaceId()
                                    + "/approvals?status=pending")
                    : List.of();
        }
        var notice = ApprovalRequestNotice.of(notification);
        if (notice.isEmpty() || !isUuid(notification.workspaceId()) || !isUuid(notice.get().approvalRequestId())) {
            return List.of();
        }
        String approvals = baseUrl + "/admin/v1/workspaces/" + notification.workspaceId() + "/approvals";
        String approval = approvals + "/" + notice.get().approvalRequestId();
        return List.of(
                "How to review: open the approval in the console (as a reviewer, admin or owner of the workspace), or use the"
                        + " admin API with your user JWT as Bearer token (the JSON body {\"reason\": \"...\"} is optional):",
                "Console: " + baseUrl + "/approvals/" + notification.workspaceId() + "/" + notice.get().approvalRequestId(),
                "Approve: POST " + approval + "/approve",
                "Reject: POST " + approval + "/reject",
                "Pending approvals: GET " + approvals + "?status=pending");
    }

    private static boolean isUuid(String value) {
        return value != null && UUID.matcher(value).matches();
    }
}
