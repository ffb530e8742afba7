package io.agentgateway.classification;

import java.util.List;

/**
 * A tool's REST API as the spec's fixed table reads it (spec 4.5): a request's method and canonical path to an
 * action string and the resource it names. Requests no row names get a stable string of their own
 * ({@link PathTemplateActions}); the risk of every action comes from the tool's risk table ({@link RiskClassifier}).
 * A tool's profile names its table ({@link ToolProfile.Proxied#restTable()}).
 */
public interface RestActionTable {

    /**
     * @param method   the request's method, upper case as on the request line ({@code GET}, {@code PUT}, ...)
     * @param segments the canonical path's segments, in lower case when the tool routes case-insensitively
     */
    RestAction classify(String method, List<String> segments);

    /**
     * @param action       the action string ({@code <resource>.<verb>}, or {@code read})
     * @param resourceType e.g. {@code repository}, or null
     * @param resourceId   e.g. {@code owner/repo}, or null
     */
    record RestAction(String action, String resourceType, String resourceId) {}
}
