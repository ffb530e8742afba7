package io.agentgateway.schemas.notification;

import io.agentgateway.schemas.call.CallView;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The facts of an {@code approval_requested} notification, as they travel in
 * {@link NotificationRequested#details()}: what the agent asks for and which approval to review. One
 * place for the keys, so that the decision stream (writer) and the notifier (reader) cannot drift apart.
 *
 * <p>Deliberately absent: the action's payload and the held call (sealed anyway). A notification goes
 * to mailboxes and chat channels; it says what is asked, never with which credentials: what will run is told
 * only through the held call's {@link CallView} (bounded, secrets redacted by the entry point that sealed the
 * call), its parts under the {@code call*} keys, and the {@code callDigest} that binds the approval.
 *
 * @param approvalRequestId the approval to review (uuid)
 * @param auditLogId        the audit entry of the evaluation that opened it
 * @param tool              wire name of the tool
 * @param riskLevel         wire name of the risk level the decision used
 * @param source            wire name of the entry point ({@code evaluate}, {@code proxy}, {@code mcp}...), or null
 * @param expiresAt         ISO-8601 instant after which the approval is expired
 * @param callDigest        the digest the approval is bound to (SHA-256 hex), or null
 * @param call              what the held call will do (bounded and redacted), or null when there is none
 */
public record ApprovalRequestNotice(
        String approvalRequestId,
        String auditLogId,
        String workspaceName,
        String tool,
        String action,
        String riskLevel,
        String source,
        String agentId,
        String agentName,
        String resourceType,
        String resourceId,
        String reason,
        String matchedPolicyId,
        String expiresAt,
        String callDigest,
        CallView call) {

    public static final String APPROVAL_REQUEST_ID = "approvalRequestId";
    public static final String AUDIT_LOG_ID = "auditLogId";
    public static final String WORKSPACE_NAME = "workspaceName";
    public static final String TOOL = "tool";
    public static final String ACTION = "action";
    public static final String RISK_LEVEL = "riskLevel";
    public static final String SOURCE = "source";
    public static final String AGENT_ID = "agentId";
    public static final String AGENT_NAME = "agentName";
    public static final String RESOURCE_TYPE = "resourceType";
    public static final String RESOURCE_ID = "resourceId";
    public static final String REASON = "reason";
    public static final String MATCHED_POLICY_ID = "matchedPolicyId";
    public static final String EXPIRES_AT = "expiresAt";
    public static final String CALL_DIGEST = "callDigest";
    public static final String CALL_METHOD = "callMethod";
    public static final String CALL_PATH = "callPath";
    public static final String CALL_QUERY = "callQuery";
    public static final String CALL_GRAPHQL_OPERATION = "callGraphqlOperation";
    public static final String CALL_GRAPHQL_DOCUMENT = "callGraphqlDocument";
    public static final String CALL_GRAPHQL_VARIABLES = "callGraphqlVariables";
    public static final String CALL_MCP_TOOL = "callMcpTool";
    public static final String CALL_MCP_ARGUMENTS = "callMcpArguments";
    public static final String CALL_BODY_EXCERPT = "callBodyExcerpt";
    public static final String CALL_FILE_CONTENT = "callFileContent";
    public static final String CALL_BODY_BYTES = "callBodyBytes";
    public static final String CALL_TRUNCATED = "callTruncated";
    public static final String CALL_REDACTED = "callRedacted";

    /** Without a digest or a view of the call (the form written before reviewers were shown the call). */
    public ApprovalRequestNotice(String approvalRequestId, String auditLogId, String workspaceName, String tool,
                                 String action, String riskLevel, String source, String agentId, String agentName,
                                 String resourceType, String resourceId, String reason, String matchedPolicyId,
                                 String expiresAt) {
        this(approvalRequestId, auditLogId, workspaceName, tool, action, riskLevel, source, agentId, agentName,
                resourceType, resourceId, reason, matchedPolicyId, expiresAt, null, null);
    }

    public ApprovalRequestNotice {
        Objects.requireNonNull(approvalRequestId, "approvalRequestId");
    }

    /** The details map of the notification, in a stable order, without the facts that are absent. */
    public Map<String, String> toDetails() {
        Map<String, String> details = new LinkedHashMap<>();
        put(details, APPROVAL_REQUEST_ID, approvalRequestId);
        put(details, AUDIT_LOG_ID, auditLogId);
        put(details, WORKSPACE_NAME, workspaceName);
        put(details, TOOL, tool);
        put(details, ACTION, action);
        put(details, RISK_LEVEL, riskLevel);
        put(details, SOURCE, source);
        put(details, AGENT_ID, agentId);
        put(details, AGENT_NAME, agentName);
        put(details, RESOURCE_TYPE, resourceType);
        put(details, RESOURCE_ID, resourceId);
        put(details, REASON, reason);
        put(details, MATCHED_POLICY_ID, matchedPolicyId);
        put(details, EXPIRES_AT, expiresAt);
        put(details, CALL_DIGEST, callDigest);
        if (call != null) {
            put(details, CALL_METHOD, call.method());
            put(details, CALL_PATH, call.path());
            put(details, CALL_QUERY, call.query());
            put(details, CALL_GRAPHQL_OPERATION, call.graphqlOperation());
            put(details, CALL_GRAPHQL_DOCUMENT, call.graphqlDocument());
            put(details, CALL_GRAPHQL_VARIABLES, call.graphqlVariables());
            put(details, CALL_MCP_TOOL, call.mcpTool());
            put(details, CALL_MCP_ARGUMENTS, call.mcpArguments());
            put(details, CALL_BODY_EXCERPT, call.bodyExcerpt());
            put(details, CALL_FILE_CONTENT, call.fileContent());
            put(details, CALL_BODY_BYTES, call.bodyBytes() == null ? null : call.bodyBytes().toString());
            put(details, CALL_TRUNCATED, Boolean.toString(call.truncated()));
            put(details, CALL_REDACTED, Boolean.toString(call.redacted()));
        }
        return Collections.unmodifiableMap(details);
    }

    /** The notice carried by {@code notification}, when it is an approval request that names its approval. */
    public static Optional<ApprovalRequestNotice> of(NotificationRequested notification) {
        if (!NotificationRequested.KIND_APPROVAL_REQUESTED.equals(notification.kind()) || notification.details() == null) {
            return Optional.empty();
        }
        Map<String, String> d = notification.details();
        String approvalId = d.get(APPROVAL_REQUEST_ID);
        if (approvalId == null || approvalId.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(new ApprovalRequestNotice(approvalId, d.get(AUDIT_LOG_ID), d.get(WORKSPACE_NAME), d.get(TOOL),
                d.get(ACTION), d.get(RISK_LEVEL), d.get(SOURCE), d.get(AGENT_ID), d.get(AGENT_NAME), d.get(RESOURCE_TYPE),
                d.get(RESOURCE_ID), d.get(REASON), d.get(MATCHED_POLICY_ID), d.get(EXPIRES_AT), d.get(CALL_DIGEST),
                callOf(d)));
    }

    /** The call view carried by the details, or null when they carry none (its truncated/redacted flags mark it). */
    private static CallView callOf(Map<String, String> d) {
        if (!d.containsKey(CALL_TRUNCATED) && !d.containsKey(CALL_REDACTED)) {
            return null;
        }
        Integer bytes = null;
        try {
            bytes = d.get(CALL_BODY_BYTES) == null ? null : Integer.valueOf(d.get(CALL_BODY_BYTES));
        } catch (NumberFormatException e) {
            // a size we cannot read is shown as unknown
        }
        return new CallView(d.get(CALL_METHOD), d.get(CALL_PATH), d.get(CALL_QUERY), d.get(CALL_GRAPHQL_OPERATION),
                d.get(CALL_GRAPHQL_DOCUMENT), d.get(CALL_GRAPHQL_VARIABLES), d.get(CALL_MCP_TOOL), d.get(CALL_MCP_ARGUMENTS),
                d.get(CALL_BODY_EXCERPT), d.get(CALL_FILE_CONTENT), bytes, Boolean.parseBoolean(d.get(CALL_TRUNCATED)),
                Boolean.parseBoolean(d.get(CALL_REDACTED)));
    }

    private static void put(Map<String, String> details, String key, String value) {
        if (value != null) {
            details.put(key, value);
        }
    }
}
