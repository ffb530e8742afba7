package io.agentgateway.toolproxy;

import io.agentgateway.schemas.RiskLevel;

/**
 * What a proxied request does, as the decision stream sees it.
 *
 * @param action        the action string ({@code <resource>.<verb>}, or {@code read})
 * @param risk          its risk level (re-classified by the stream for the code host and the issue tracker)
 * @param resourceType  e.g. {@code repository}, or null
 * @param resourceId    e.g. {@code owner/repo}, or null
 */
record ProxyAction(String action, RiskLevel risk, String resourceType, String resourceId) {

    static ProxyAction of(String action, RiskLevel risk) {
        return new ProxyAction(action, risk, null, null);
    }
}
